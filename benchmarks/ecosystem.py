"""The ecosystem check: what ``tflsp check`` says about real code, against a committed triage.

Runs ``tflsp check --format json`` with the default rules (as a user would) on real code nobody
on the team wrote, and compares every finding with ``tests/ecosystem/triage/<corpus>.toml``, in
which a human judged each finding by reading the code (the idea comes from ruff's ecosystem
check, which diffs a PR's findings on real projects against main's).

Corpora:

- ``../shared/corpus`` in three groups (each group: the ``.py`` folder and its ``__nb``
  notebook twin together): ``tensorflow-docs``, ``tensorflow-examples``, ``TensorFlow-Examples``;
- pinned PyPI wheels, downloaded once with ``pip download --no-deps NAME==VERSION`` into
  ``~/.cache/tflsp-ecosystem/wheels/`` and unzipped into ``~/.cache/tflsp-ecosystem/NAME-VERSION/``
  (``TFLSP_ECOSYSTEM_CACHE`` moves the cache, ``TFLSP_SHARED`` moves ``../shared``).

Triage entries are keyed so that they survive line shifts and edits elsewhere in a file:
``"PATH|CODE|SCOPE|HASH|N"`` where SCOPE is the enclosing ``Class.function`` (``<module>`` at
the top level), HASH the first 10 hex digits of the SHA-1 of the flagged line with its
whitespace collapsed, and N counts equal keys in line order.  Each entry is one line of TOML
(``{ line = hint, verdict = "right" | "wrong" | "noise" | "?", reason = "..." }``), sorted by
path and line, so branches that add entries merge without trouble.

Usage::

    python benchmarks/ecosystem.py                  # figures for every corpus
    python benchmarks/ecosystem.py --diff           # + / - findings against the triage
    python benchmarks/ecosystem.py --update         # add new findings as verdict "?", drop gone ones
    python benchmarks/ecosystem.py --pending        # show each "?" finding with its code, to judge
    python benchmarks/ecosystem.py --corpus keras-hub --corpus tf-agents
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
TRIAGE_DIR = REPO / "tests" / "ecosystem" / "triage"
VERDICTS = ("right", "wrong", "noise", "?")
PER_LINES = 20_000
REFRESH = "python benchmarks/ecosystem.py --update"


@dataclass(frozen=True)
class Corpus:
    name: str
    about: str
    folders: tuple[str, ...] = ()  # under ../shared/corpus
    package: str = ""  # a PyPI distribution, pinned
    version: str = ""
    # Extra `pip download` arguments: a package with compiled wheels only is fetched as one fixed
    # wheel whatever Python runs the check (only its Python sources are read).
    download_args: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        return f"{self.package}=={self.version}"


CORPORA = (
    Corpus(
        "tensorflow-docs",
        "github.com/tensorflow/docs guides and tutorials (.py and converted notebooks)",
        folders=("tensorflow+docs", "tensorflow+docs__nb"),
    ),
    Corpus(
        "tensorflow-examples",
        "github.com/tensorflow/examples apps and Model Maker (.py and converted notebooks)",
        folders=("tensorflow+examples", "tensorflow+examples__nb"),
    ),
    Corpus(
        "TensorFlow-Examples",
        "github.com/aymericdamien/TensorFlow-Examples, mostly TF1 (.py and converted notebooks)",
        folders=("aymericdamien+TensorFlow-Examples", "aymericdamien+TensorFlow-Examples__nb"),
    ),
    Corpus(
        "tf-models-official",
        "tensorflow/models (tf.keras)",
        package="tf-models-official",
        version="2.20.0",
    ),
    Corpus("keras-hub", "keras-hub (Keras 3)", package="keras-hub", version="0.32.0"),
    Corpus(
        "tensorflow-recommenders",
        "TensorFlow Recommenders",
        package="tensorflow-recommenders",
        version="0.7.7",
    ),
    Corpus("tf-agents", "TF-Agents", package="tf-agents", version="0.19.0"),
    # Held out (issue 13): added after the analyzer was tuned on the corpora above, triaged
    # by reading the code without having looked at it before.
    Corpus(
        "keras-cv",
        "KerasCV (Keras 3, with a Keras 2 path through keras_cv.src.backend)",
        package="keras-cv",
        version="0.9.0",
    ),
    Corpus(
        "tensorflow-addons",
        "TensorFlow Addons (tf.keras, judged on Keras 3: it declares neither tf-keras nor TF < 2.16)",
        package="tensorflow-addons",
        version="0.23.0",
        download_args=(
            "--only-binary=:all:",
            "--platform=manylinux2014_x86_64",
            "--python-version=3.11",
        ),
    ),
    Corpus(
        "tensorflow-model-optimization",
        "TensorFlow Model Optimization Toolkit (tf.keras)",
        package="tensorflow-model-optimization",
        version="0.8.1",
    ),
    # A second held-out batch, added once the fixes for the first had landed.
    Corpus("dm-sonnet", "Sonnet 2 (tf.Module)", package="dm-sonnet", version="2.0.2"),
    Corpus("keras-tuner", "KerasTuner", package="keras-tuner", version="1.4.7"),
    Corpus("tensorflow-hub", "TensorFlow Hub", package="tensorflow-hub", version="0.16.1"),
    Corpus(
        "tensorflow-gnn",
        "TF-GNN (tf.keras, judged on Keras 3: it declares neither tf-keras nor TF < 2.16)",
        package="tensorflow-gnn",
        version="1.0.3",
    ),
)
SHARED_CORPORA = tuple(c.name for c in CORPORA if c.folders)
WHEEL_CORPORA = tuple(c.name for c in CORPORA if c.package)


# -- where the code is ---------------------------------------------------------------------------


def shared_corpus_dir() -> Path:
    return Path(os.environ.get("TFLSP_SHARED") or REPO.parent / "shared") / "corpus"


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "tflsp-ecosystem"
    return Path(os.environ.get("TFLSP_ECOSYSTEM_CACHE") or default)


class Unavailable(Exception):
    """The corpus is not on this machine (and could not be downloaded)."""


def wheel_dir(corpus: Corpus) -> Path:
    return cache_dir() / f"{corpus.package}-{corpus.version}"


def ensure_wheel(corpus: Corpus, download: bool = True) -> Path:
    """The unzipped wheel of ``corpus``; downloads and unzips it the first time."""
    target = wheel_dir(corpus)
    if target.is_dir():
        return target
    wheels = cache_dir() / "wheels"
    stem = re.sub(r"[-_.]+", "_", corpus.package).lower() + f"-{corpus.version}-"
    found = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem)]
    if not found:
        if not download:
            raise Unavailable(
                f"{corpus.spec} is not in {wheels} (run benchmarks/ecosystem.py once)"
            )
        wheels.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "-d",
                str(wheels),
                *corpus.download_args,
                corpus.spec,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        found = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem)]
        if proc.returncode != 0 or not found:
            errors = [e for e in proc.stderr.splitlines() if "Location 'file" not in e]
            raise Unavailable(f"pip download {corpus.spec} failed: {' '.join(errors[-2:])}")
    # Unzip next to the target and rename, so that an interrupted run leaves no half corpus.
    partial = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=cache_dir()))
    with zipfile.ZipFile(found[0]) as archive:
        archive.extractall(partial)
    try:
        partial.rename(target)
    except OSError:  # another process got there first
        shutil.rmtree(partial, ignore_errors=True)
    return target


def locate(corpus: Corpus, download: bool = True) -> tuple[Path, list[str]]:
    """``(working directory, paths to check)``; raises :class:`Unavailable`."""
    if corpus.folders:
        root = shared_corpus_dir()
        missing = [f for f in corpus.folders if not (root / f).is_dir()]
        if missing:
            raise Unavailable(
                f"{root / missing[0]} is absent: ../shared (real code that is not part of the "
                "project) is not beside this clone; set TFLSP_SHARED to the folder with corpus/"
            )
        return root, list(corpus.folders)
    return ensure_wheel(corpus, download), ["."]


# -- findings and their keys ---------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    message: str
    scope: str
    digest: str
    occurrence: int = 1

    @property
    def key(self) -> str:
        return f"{self.path}|{self.code}|{self.scope}|{self.digest}|{self.occurrence}"


def line_digest(text: str) -> str:
    normalised = " ".join(text.split())
    return hashlib.sha1(normalised.encode("utf-8")).hexdigest()[:10]


def scopes(source: str) -> list[tuple[int, int, str]]:
    """``(first line, last line, qualified name)`` of every class and function, outer first."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                # From the `def` line: decorators are evaluated in the enclosing scope.
                out.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def scope_at(spans: Sequence[tuple[int, int, str]], line: int) -> str:
    inner = "<module>"
    for first, last, name in spans:  # outer before inner: the last match is the innermost
        if first <= line <= last:
            inner = name
    return inner


def source_lines(path: Path, cell: int | None) -> str:
    """The text the reported line numbers refer to: the file, or one notebook cell."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if cell is None:
        return text
    cells = [c for c in json.loads(text).get("cells", []) if c.get("cell_type") == "code"]
    source = cells[cell - 1].get("source", "") if 0 < cell <= len(cells) else ""
    return "".join(source) if isinstance(source, list) else str(source)


def keyed(root: Path, records: Iterable[dict[str, object]]) -> list[Finding]:
    """Findings with their triage keys (occurrence numbers counted in line order)."""
    texts: dict[tuple[str, int | None], tuple[list[str], list[tuple[int, int, str]]]] = {}
    raw: list[Finding] = []
    for record in records:
        path = str(record["path"]).removeprefix("./")
        cell = record.get("cell")
        cell_no = int(cell) if isinstance(cell, int) else None
        if (path, cell_no) not in texts:
            text = source_lines(root / path, cell_no)
            texts[path, cell_no] = (text.splitlines(), scopes(text))
        lines, spans = texts[path, cell_no]
        line = int(record["line"])  # type: ignore[call-overload]
        flagged = lines[line - 1] if 0 < line <= len(lines) else ""
        shown = path if cell_no is None else f"{path}#cell{cell_no}"
        raw.append(
            Finding(
                shown,
                line,
                int(record["column"]),  # type: ignore[call-overload]
                str(record["code"]),
                str(record["message"]),
                scope_at(spans, line),
                line_digest(flagged),
            )
        )
    raw.sort(key=lambda f: (f.path, f.line, f.column, f.code))
    seen: Counter[str] = Counter()
    out = []
    for finding in raw:
        stem = finding.key.rsplit("|", 1)[0]
        seen[stem] += 1
        out.append(Finding(**{**finding.__dict__, "occurrence": seen[stem]}))
    return out


def run_check(root: Path, paths: Sequence[str], jobs: int = 0) -> list[dict[str, object]]:
    """``tflsp check --format json`` with the default rules, no configuration file."""
    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    env.pop("TF_USE_LEGACY_KERAS", None)
    command = [sys.executable, "-m", "tflsp", "check", "--format", "json", "--isolated"]
    command += ["--lang", "en", "--exit-zero", "--jobs", str(jobs), *paths]
    proc = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"tflsp check failed ({proc.returncode}) in {root}:\n{proc.stderr}")
    records: list[dict[str, object]] = json.loads(proc.stdout)
    return records


def count_source(root: Path, paths: Sequence[str]) -> tuple[int, int]:
    """``(files, lines)`` of what ``tflsp check`` reads under ``paths``."""
    from tflsp.cli.sources import discover

    files = lines = 0
    for name, error in discover([str(root / p) for p in paths]):
        if error:
            continue
        files += 1
        path = Path(name)
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8", errors="replace")).get("cells", [])
            for c in cells:
                if c.get("cell_type") == "code":
                    src = c.get("source", "")
                    lines += len(("".join(src) if isinstance(src, list) else src).splitlines())
        else:
            lines += len(path.read_text(encoding="utf-8", errors="replace").splitlines())
    return files, lines


# -- the triage file -----------------------------------------------------------------------------


@dataclass
class Entry:
    line: int
    verdict: str
    reason: str


def triage_path(corpus: Corpus) -> Path:
    return TRIAGE_DIR / f"{corpus.name}.toml"


def load_triage(path: Path) -> dict[str, Entry]:
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for key, value in data.items():
        if not isinstance(value, dict) or key.count("|") != 4:
            raise ValueError(f"{path}: {key!r} is not a finding key (PATH|CODE|SCOPE|HASH|N)")
        verdict = str(value.get("verdict", "?"))
        if verdict not in VERDICTS:
            raise ValueError(f"{path}: {key!r} has verdict {verdict!r}; use one of {VERDICTS}")
        out[key] = Entry(int(value.get("line", 0)), verdict, str(value.get("reason", "")))
    return out


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # JSON escapes are valid TOML basic strings


def dump_triage(corpus: Corpus, entries: dict[str, Entry]) -> str:
    where = corpus.spec if corpus.package else "../shared/corpus/{" + ",".join(corpus.folders) + "}"
    head = [
        f"# Ecosystem-check triage: {corpus.name} — {corpus.about}; {where}.",
        "# Every finding of `tflsp check` (default rules), judged by reading the code.",
        '# Key: "PATH|CODE|SCOPE|HASH|N" (SCOPE: enclosing Class.function; HASH: the flagged line,',
        "# whitespace collapsed; N: count of equal keys). line is a hint. verdict: right (a real",
        "# pitfall on TF 2.21), wrong (a false positive: a bug to fix), noise (true, not worth",
        '# saying), "?" (not judged yet). Refresh with: python benchmarks/ecosystem.py --update',
        "",
    ]

    def order(item: tuple[str, Entry]) -> tuple[str, int, str]:
        return (item[0].split("|", 1)[0], item[1].line, item[0])

    body = [
        f"{_toml_string(key)} = {{ line = {e.line}, verdict = {_toml_string(e.verdict)}, "
        f"reason = {_toml_string(e.reason)} }}"
        for key, e in sorted(entries.items(), key=order)
    ]
    return "\n".join(head + body) + "\n"


# -- comparing -----------------------------------------------------------------------------------


@dataclass
class Result:
    corpus: Corpus
    files: int
    lines: int
    seconds: float
    findings: list[Finding]
    triage: dict[str, Entry]
    added: list[Finding] = field(init=False)  # found, not in the triage
    removed: dict[str, Entry] = field(init=False)  # in the triage, not found

    def __post_init__(self) -> None:
        found = {f.key for f in self.findings}
        self.added = [f for f in self.findings if f.key not in self.triage]
        self.removed = {k: e for k, e in self.triage.items() if k not in found}

    def verdict(self, finding: Finding) -> str:
        entry = self.triage.get(finding.key)
        return entry.verdict if entry else "?"

    def counts(self, code: str | None = None) -> Counter[str]:
        return Counter(self.verdict(f) for f in self.findings if code is None or f.code == code)

    @property
    def pending(self) -> list[Finding]:
        return [f for f in self.findings if self.verdict(f) == "?"]

    @property
    def clean(self) -> bool:
        """The triage matches the findings and judges every one of them."""
        return not self.added and not self.removed and not self.pending

    def figures(self) -> dict[str, float | int | None]:
        c = self.counts()
        judged = c["right"] + c["wrong"] + c["noise"]
        per = PER_LINES / self.lines if self.lines else 0.0
        return {
            "files": self.files,
            "lines": self.lines,
            "findings": len(self.findings),
            "right": c["right"],
            "wrong": c["wrong"],
            "noise": c["noise"],
            "untriaged": c["?"],
            "per_20k": len(self.findings) * per,
            "precision": c["right"] / judged if judged else None,
            "not_real_per_20k": (c["wrong"] + c["noise"]) * per,
            "seconds": self.seconds,
        }


def check_corpus(corpus: Corpus, jobs: int = 0, download: bool = True) -> Result:
    root, paths = locate(corpus, download)
    started = time.perf_counter()
    records = run_check(root, paths, jobs)
    seconds = time.perf_counter() - started
    files, lines = count_source(root, paths)
    findings = keyed(root, records)
    return Result(corpus, files, lines, seconds, findings, load_triage(triage_path(corpus)))


def update(result: Result) -> tuple[int, int]:
    """Add untriaged findings as ``"?"``, drop entries no longer found, refresh line hints."""
    entries = {}
    for finding in result.findings:
        entry = result.triage.get(finding.key)
        verdict, reason = (entry.verdict, entry.reason) if entry else ("?", "")
        entries[finding.key] = Entry(finding.line, verdict, reason)
    path = triage_path(result.corpus)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_triage(result.corpus, entries), encoding="utf-8")
    return len(result.added), len(result.removed)


# -- output --------------------------------------------------------------------------------------


def diff_lines(result: Result) -> list[str]:
    """ruff-ecosystem style: ``+`` new findings, ``-`` triaged findings that are gone."""
    out = []
    for f in result.added:
        out.append(f"+ {f.path}:{f.line}:{f.column}: {f.code} {f.message}  [{f.scope}]")
    for key, e in sorted(result.removed.items(), key=lambda kv: (kv[0], kv[1].line)):
        path, code, scope = key.split("|")[:3]
        out.append(f"- {path}:{e.line}: {code} [{scope}] was {e.verdict}: {e.reason}")
    return out


def shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def describe_mismatch(result: Result) -> str:
    """What a failing test prints: the diff, the pending findings and the command to refresh."""
    parts = []
    if result.added or result.removed:
        parts.append(
            f"{result.corpus.name}: {len(result.added)} new finding(s) (+), "
            f"{len(result.removed)} triaged finding(s) gone (-):"
        )
        parts += diff_lines(result)
    added = {f.key for f in result.added}
    waiting = [f for f in result.pending if f.key not in added]
    if waiting:
        parts.append(f'{result.corpus.name}: {len(waiting)} finding(s) still have verdict "?":')
        parts += [f"? {f.path}:{f.line}: {f.code} {f.message}" for f in waiting]
    parts.append(
        f"Refresh with `{REFRESH} --corpus {result.corpus.name}`, then judge every "
        f'verdict = "?" in {shown(triage_path(result.corpus))} by reading the code '
        "(right / wrong / noise, with a one-line reason); `--pending` shows them with context."
    )
    return "\n".join(parts)


def table(results: Sequence[Result]) -> str:
    width = max([24] + [len(r.corpus.name) + 2 for r in results])
    header = (
        f"{'corpus':<{width}}{'files':>6}{'lines':>9}{'found':>7}{'right':>7}{'wrong':>7}"
        f"{'noise':>7}{'?':>5}{'/20k':>7}{'prec.':>7}{'bad/20k':>9}{'secs':>7}"
    )
    rows = [header, "-" * len(header)]
    for r in results:
        f = r.figures()
        precision = f"{f['precision']:.0%}" if f["precision"] is not None else "-"
        rows.append(
            f"{r.corpus.name:<{width}}{f['files']:>6}{f['lines']:>9,}{f['findings']:>7}"
            f"{f['right']:>7}{f['wrong']:>7}{f['noise']:>7}{f['untriaged']:>5}"
            f"{f['per_20k']:>7.1f}{precision:>7}{f['not_real_per_20k']:>9.2f}{f['seconds']:>7.1f}"
        )
    return "\n".join(rows)


def shared_summary(results: Sequence[Result]) -> str | None:
    """The issue's target is on ``../shared/corpus`` as a whole: its precision, with and
    without TFL601 (removed TF1 APIs, which dominate the TF1-era tutorials)."""
    shared = [r for r in results if r.corpus.folders]
    if {r.corpus.name for r in shared} != set(SHARED_CORPORA):
        return None
    parts = []
    for label, keep in (("all codes", None), ("without TFL601", "TFL601")):
        verdicts = Counter(r.verdict(f) for r in shared for f in r.findings if f.code != keep)
        judged = verdicts["right"] + verdicts["wrong"] + verdicts["noise"]
        share = f"{verdicts['right'] / judged:.1%}" if judged else "-"
        parts.append(f"{label}: {verdicts['right']} right of {judged} judged ({share})")
    return "../shared/corpus overall: " + "; ".join(parts)


def per_code(result: Result) -> str:
    codes = sorted({f.code for f in result.findings})
    parts = []
    for code in codes:
        c = result.counts(code)
        judged = ", ".join(f"{c[v]} {v}" for v in VERDICTS if c[v])
        parts.append(f"{code} {sum(c.values())} ({judged})")
    return f"  {result.corpus.name}: " + ("; ".join(parts) if parts else "no findings")


def context(result: Result, finding: Finding, around: int = 3) -> str:
    root, _ = locate(result.corpus, download=False)
    path, _, cell = finding.path.partition("#cell")
    text = source_lines(root / path, int(cell) if cell else None).splitlines()
    first = max(1, finding.line - around)
    last = min(len(text), finding.line + around)
    body = [
        f"{'>' if n == finding.line else ' '}{n:5} {text[n - 1]}" for n in range(first, last + 1)
    ]
    head = f"{finding.key}\n  {finding.path}:{finding.line}: {finding.code} {finding.message}"
    return "\n".join([head, *body])


def check_from_triage(result: Result) -> Result:
    """The same findings, compared with the triage file as it is now on disk."""
    return Result(
        result.corpus,
        result.files,
        result.lines,
        result.seconds,
        result.findings,
        load_triage(triage_path(result.corpus)),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    names = [c.name for c in CORPORA]
    parser.add_argument("--corpus", action="append", choices=names, help="default: all")
    parser.add_argument("--jobs", "-j", type=int, default=0, help="tflsp check --jobs")
    parser.add_argument("--diff", action="store_true", help="print added/removed findings")
    parser.add_argument("--update", action="store_true", help="write new findings as verdict ?")
    parser.add_argument("--pending", action="store_true", help="show unjudged findings in context")
    parser.add_argument(
        "--no-download", action="store_true", help="skip wheels that are not in the cache yet"
    )
    args = parser.parse_args(argv)
    chosen = [c for c in CORPORA if not args.corpus or c.name in args.corpus]

    results = []
    for corpus in chosen:
        try:
            result = check_corpus(corpus, args.jobs, download=not args.no_download)
        except Unavailable as exc:
            print(f"skipped {corpus.name}: {exc}", file=sys.stderr)
            continue
        results.append(result)
        if args.update:
            added, removed = update(result)
            print(f'{corpus.name}: +{added} as verdict "?", -{removed} gone', file=sys.stderr)
            for line in diff_lines(result):
                if line.startswith("-"):
                    print(line, file=sys.stderr)
            result = check_from_triage(result)
            results[-1] = result
        elif args.diff and (result.added or result.removed):
            print("\n".join(diff_lines(result)))
        if args.pending:
            for finding in result.pending:
                print(context(result, finding) + "\n")

    print(table(results))
    overall = shared_summary(results)
    if overall:
        print(overall)
    print("findings per code:")
    for result in results:
        print(per_code(result))
    total = sum(len(r.added) + len(r.removed) for r in results)
    if not args.update and total:
        print(f"\n{total} finding(s) differ from the triage; --diff lists them; refresh: {REFRESH}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
