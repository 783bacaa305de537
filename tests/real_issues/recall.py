"""The real-issue case set: load the cases, run the analyzer on them, measure recall.

Each case under ``cases/`` is a small program paraphrased from one real GitHub issue or Q&A
thread. Its header is a TOML block between ``# /// case`` and ``# ///`` (the shape of PEP 723
script metadata); the lines a reviewer of the thread would point at end in ``# <-``. A case is
*caught* when the analyzer (default rules, default settings, as a user runs ``tflsp check``)
reports any finding on one of those lines. Clean look-alikes (``clean = true``) have no marked
line and must get no finding at all.

Run as a script to print the figures, or to rewrite the committed baseline::

    .venv/bin/python -m tests.real_issues.recall                 # report
    .venv/bin/python -m tests.real_issues.recall --write-baseline  # after a detector improved
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
BASELINE = HERE / "baseline.json"

SAMPLINGS = ("by-pattern", "by-symptom")
FLAVOURS = ("keras3", "tf.keras", "tf_keras", "tf1")
RUNTIMES = ("raises", "warns", "silent")
REQUIRED = ("source", "title", "sampling", "symptom", "flavour", "kind", "mistake")
KNOWN_KEYS = {*REQUIRED, "runtime", "expected", "clean", "note"}

_HEADER = re.compile(r"\A# /// case\n(?P<body>(?:#(?: .*)?\n)*?)# ///\n", re.MULTILINE)
_MARK = re.compile(r"#\s*<-\s*$")
# The catalog's own markers must not appear: cases are judged by a reviewer, not by tflsp.
_CATALOG_MARK = re.compile(r"#\s*\[TFL\d{3}")


class CaseError(ValueError):
    """A case file that does not follow the format in README.md."""


@dataclass(frozen=True)
class Case:
    id: str
    path: Path
    source: str
    title: str
    sampling: str  # "by-pattern" or "by-symptom"
    query: str  # the symptom query for by-symptom cases, "" otherwise
    symptom: str
    flavour: str
    kind: str
    mistake: str
    clean: bool
    runtime: str | None
    expected: tuple[str, ...]
    marked: frozenset[int]  # 1-based lines ending in "# <-"
    text: str


@dataclass
class Outcome:
    case: Case
    findings: list[tuple[int, str]]  # (line, code) of every finding

    @property
    def hits(self) -> list[tuple[int, str]]:
        return [(line, code) for line, code in self.findings if line in self.case.marked]

    @property
    def caught(self) -> bool:
        return bool(self.hits)


def parse_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    match = _HEADER.match(text)
    if match is None:
        raise CaseError(f"{path.name}: no '# /// case' header block at the top")
    body = "\n".join(
        line[2:] if line.startswith("# ") else "" for line in match["body"].splitlines()
    )
    try:
        meta = tomllib.loads(body)
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"{path.name}: header is not valid TOML: {exc}") from exc
    missing = [key for key in REQUIRED if not meta.get(key)]
    if missing:
        raise CaseError(f"{path.name}: header lacks {', '.join(missing)}")
    unknown = set(meta) - KNOWN_KEYS
    if unknown:
        raise CaseError(f"{path.name}: unknown header keys {sorted(unknown)}")
    sampling, _, query = str(meta["sampling"]).partition(":")
    sampling, query = sampling.strip(), query.strip()
    if sampling not in SAMPLINGS or (sampling == "by-symptom") != bool(query):
        raise CaseError(f"{path.name}: sampling must be 'by-pattern' or 'by-symptom: <query>'")
    if meta["flavour"] not in FLAVOURS:
        raise CaseError(f"{path.name}: flavour must be one of {FLAVOURS}")
    runtime = meta.get("runtime")
    if runtime is not None and runtime not in RUNTIMES:
        raise CaseError(f"{path.name}: runtime must be one of {RUNTIMES}")
    if _CATALOG_MARK.search(text):
        raise CaseError(f"{path.name}: uses tflsp's '# [TFLxxx]' markers; mark lines with '# <-'")
    marked = frozenset(i for i, line in enumerate(text.splitlines(), 1) if _MARK.search(line))
    clean = bool(meta.get("clean", False))
    if clean and marked:
        raise CaseError(f"{path.name}: a clean look-alike has no '# <-' line")
    if not clean and not marked:
        raise CaseError(f"{path.name}: no line is marked with '# <-'")
    if not clean and runtime is None:
        raise CaseError(f"{path.name}: say what TF/Keras does (runtime = raises | warns | silent)")
    expected = tuple(meta.get("expected", ()))
    return Case(
        id=path.stem,
        path=path,
        source=str(meta["source"]),
        title=str(meta["title"]),
        sampling=sampling,
        query=query,
        symptom=str(meta["symptom"]),
        flavour=str(meta["flavour"]),
        kind=str(meta["kind"]),
        mistake=str(meta["mistake"]),
        clean=clean,
        runtime=runtime,
        expected=expected,
        marked=marked,
        text=text,
    )


def load_cases(folder: Path = CASES) -> list[Case]:
    return [parse_case(path) for path in sorted(folder.glob("*.py"))]


def run(cases: Iterable[Case]) -> list[Outcome]:
    """Analyse every case as ``tflsp check`` would: default rules and settings."""
    from tflsp.analysis import analyze_source

    outcomes = []
    for case in cases:
        result = analyze_source(case.text)
        outcomes.append(Outcome(case, [(d.line, d.code) for d in result.diagnostics]))
    return outcomes


@dataclass
class Report:
    outcomes: list[Outcome]
    lines: list[str] = field(default_factory=list)

    @property
    def pitfalls(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.case.clean]

    @property
    def clean(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.case.clean]

    @property
    def caught_ids(self) -> set[str]:
        return {o.case.id for o in self.pitfalls if o.caught}

    @property
    def false_positives(self) -> list[Outcome]:
        return [o for o in self.clean if o.findings]

    @property
    def false_positive_ids(self) -> set[str]:
        return {o.case.id for o in self.false_positives}

    def render(self) -> str:
        out: list[str] = []

        def ratio(group: list[Outcome]) -> str:
            caught = sum(o.caught for o in group)
            share = 100 * caught / len(group) if group else 0.0
            return f"{caught}/{len(group)} ({share:.0f}%)"

        pitfalls = self.pitfalls
        out.append(
            f"real-issue cases: {len(pitfalls)} pitfalls, {len(self.clean)} clean look-alikes"
        )
        out.append(f"recall, all: {ratio(pitfalls)}")
        for sampling in SAMPLINGS:
            out.append(
                f"recall, {sampling}: {ratio([o for o in pitfalls if o.case.sampling == sampling])}"
            )
        for flavour in FLAVOURS:
            group = [o for o in pitfalls if o.case.flavour == flavour]
            if group:
                out.append(f"recall, flavour {flavour}: {ratio(group)}")
        with_expected = [o for o in pitfalls if o.case.expected]
        by_expected = sum(any(code in o.case.expected for _, code in o.hits) for o in with_expected)
        out.append(
            f"cases naming an expected catalog code: {len(with_expected)}, "
            f"caught by that code: {by_expected}"
        )
        fps = self.false_positives
        out.append(f"false positives on clean look-alikes: {len(fps)}/{len(self.clean)}")
        for o in fps:
            found = ", ".join(f"{code}@{line}" for line, code in o.findings)
            out.append(f"  FP {o.case.id}: {found}")
        missed = [o for o in pitfalls if not o.caught]
        out.append(f"missed ({len(missed)}):")
        for o in missed:
            elsewhere = ", ".join(f"{code}@{line}" for line, code in o.findings) or "no finding"
            out.append(
                f"  {o.case.id} [{o.case.sampling}, {o.case.flavour}] {o.case.kind} ({elsewhere})"
            )
        kinds = Counter(o.case.kind for o in missed)
        out.append("missed mistake kinds, most frequent first:")
        for kind, n in kinds.most_common():
            out.append(f"  {n:3d}  {kind}")
        return "\n".join(out)


def read_baseline(path: Path = BASELINE) -> tuple[set[str], set[str]]:
    """The committed (caught ids, clean look-alikes that have findings)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return set(data["caught"]), set(data["false_positives"])


def write_baseline(report: Report, path: Path = BASELINE) -> None:
    by_sampling: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in report.pitfalls:
        by_sampling[o.case.sampling][0] += o.caught
        by_sampling[o.case.sampling][1] += 1
    data = {
        "about": "ids of real-issue cases the default rules catch; refresh with "
        "`python -m tests.real_issues.recall --write-baseline`",
        "recall": {k: f"{c}/{n}" for k, (c, n) in sorted(by_sampling.items())},
        "caught": sorted(report.caught_ids),
        "false_positives": sorted(report.false_positive_ids),
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-baseline", action="store_true", help="record the cases caught now")
    args = parser.parse_args(argv)
    report = Report(run(load_cases()))
    print(report.render())
    if args.write_baseline:
        write_baseline(report)
        print(f"baseline written: {len(report.caught_ids)} cases caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())
