"""Run ``tflsp verify`` on real targets and score it: out of the box, false alarms, seeded bugs.

Everything goes through the command line (``tflsp verify FILE::NAME ... --format json``), as a
user would run it, in a subprocess whose ``tflsp`` may come from another checkout
(``tflsp_root``): that is how the same harness measures the code before a change.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.verify.realcode.bundle import Bundle, BundleError, bundle
from tests.verify.realcode.mutate import Seed
from tests.verify.realcode.targets import Target

CACHE = Path(os.environ.get("TFLSP_ECOSYSTEM_CACHE") or Path.home() / ".cache" / "tflsp-ecosystem")
REPO = Path(__file__).resolve().parents[3]


def origin_folder(target: Target, corpus: Path) -> Path:
    return corpus if target.origin == "corpus" else CACHE / target.origin


def make_bundle(target: Target, corpus: Path) -> Bundle:
    folder = origin_folder(target, corpus)
    path = folder / target.path
    if not path.is_file():
        raise BundleError(f"{path} is absent")
    if target.root == ".":
        root = folder
    elif target.root:
        root = folder / target.root
    elif target.origin == "corpus" and target.path.startswith("tensorflow+examples/"):
        root = folder / "tensorflow+examples"
    else:
        root = path.parent
    return bundle(path, target.name, root, target.occurrence, target.constants)


@dataclass
class Case:
    """One run: a target's module (clean or with a seeded bug) in a folder of its own."""

    key: str
    target: Target
    file: Path
    seed: Seed | None = None
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def spec(self) -> str:
        return f"{self.file}::{self.target.name}"


def write_case(target: Target, source: str, folder: Path, seed: Seed | None = None) -> Case:
    key = target.key if seed is None else f"{target.key}+{seed.kind}"
    home = folder / key.replace("+", "_").replace(".", "_")
    home.mkdir(parents=True, exist_ok=True)
    file = home / Path(target.path).name
    file.write_text(source, encoding="utf-8")
    return Case(key, target, file, seed)


def run_cli(
    cases: Sequence[Case],
    *,
    tflsp_root: Path | None = None,
    extra: Sequence[str] = (),
    timeout: float = 60.0,
    batch: int = 1000,
) -> float:
    """Verify every case with ``tflsp verify ... --format json``; returns the wall time."""
    env = dict(os.environ)
    root = tflsp_root or REPO
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    started = time.monotonic()
    for start in range(0, len(cases), batch):
        chunk = list(cases[start : start + batch])
        command = [
            sys.executable,
            "-c",
            "import sys; from tflsp.cli.main import main; sys.exit(main())",
            "verify",
            *(case.spec for case in chunk),
            "--format",
            "json",
            "--timeout",
            str(timeout),
            *extra,
        ]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            cwd=str(chunk[0].file.parent.parent),
            timeout=timeout * 4 * len(chunk) + 300,
        )
        try:
            results = json.loads(done.stdout)
        except json.JSONDecodeError as exc:
            raise RuntimeError(
                f"tflsp verify printed no JSON (exit {done.returncode}):\n{done.stderr[-3000:]}"
            ) from exc
        by_spec: dict[str, Case] = {}
        for case in chunk:
            by_spec[str(case.file)] = case
        for result in results:
            case = by_spec.get(str(result.get("path")))
            if case is not None:
                case.results.append(result)
    return time.monotonic() - started


# -- scoring -----------------------------------------------------------------------------------
def _codes(finding: dict[str, Any]) -> list[str]:
    return [str(c) for c in finding.get("patterns") or []]


@dataclass
class Score:
    case: Case
    verified: bool  # every required probe reached pass or fail
    missing: list[str]  # required probes that did not
    false_errors: list[str]  # error findings that are wrong
    true_errors: list[str]
    seed_found: bool | None = None  # for seeded cases: found on the right probe
    seed_code_first: bool | None = None  # ... with the expected code as the (first) code

    def line(self) -> str:
        status = "OOB" if self.verified else "---"
        text = f"{status} {self.case.key}"
        if self.missing:
            text += f"  not verified: {', '.join(self.missing)}"
        if self.false_errors:
            text += f"  FALSE: {' | '.join(self.false_errors)}"
        if self.seed_found is not None:
            text += f"  seed {'found' if self.seed_found else 'MISSED'}"
            if self.seed_found and not self.seed_code_first:
                text += " (code not first)"
        return text


def score(case: Case) -> Score:
    target = case.target
    by_probe: dict[str, list[dict[str, Any]]] = {}
    for result in case.results:
        by_probe.setdefault(str(result.get("probe")), []).append(result)
    missing = []
    for probe in target.required:
        outcomes = {str(r.get("outcome")) for r in by_probe.get(probe, [])}
        if not outcomes or not outcomes <= {"pass", "fail"}:
            reason = next(
                (
                    str(r.get("error") or r.get("outcome"))
                    for r in by_probe.get(probe, [])
                    if r.get("outcome") not in ("pass", "fail")
                ),
                "not run",
            )
            missing.append(f"{probe} ({reason.splitlines()[0][:160] if reason else '?'})")
    false_errors: list[str] = []
    true_errors: list[str] = []
    seed = case.seed
    for result in case.results:
        probe = str(result.get("probe"))
        truth = set(target.truth.get(probe, ()))
        if seed is not None:
            truth |= set(seed.also.get(probe, ()))
            if probe == seed.probe:
                truth.add(seed.code)
        for finding in result.get("findings") or []:
            if finding.get("severity") != "error":
                continue
            codes = _codes(finding)
            text = f"{probe}: {finding.get('message', '')[:140]} {codes}"
            # "-": an error no catalog pattern describes is right here (a missing **kwargs)
            if "*" in truth or truth & set(codes) or (not codes and "-" in truth):
                true_errors.append(text)
            else:
                false_errors.append(text)
    found = first = None
    if seed is not None:
        hits = [
            f
            for r in by_probe.get(seed.probe, [])
            for f in r.get("findings") or []
            if f.get("severity") in ("error", "warning") and seed.code in _codes(f)
        ]
        found = bool(hits)
        first = any(_codes(f)[0] == seed.code for f in hits)
    return Score(case, not missing, missing, false_errors, true_errors, found, first)


@dataclass
class Summary:
    scores: list[Score]
    seconds: float

    def clean(self) -> list[Score]:
        return [s for s in self.scores if s.case.seed is None]

    def seeded(self) -> list[Score]:
        return [s for s in self.scores if s.case.seed is not None]

    def text(self, title: str) -> str:
        clean, seeded = self.clean(), self.seeded()
        verified = sum(s.verified for s in clean)
        false = sum(len(s.false_errors) for s in clean)
        with_false = sum(bool(s.false_errors) for s in clean)
        lines = [
            f"{title}: {len(clean)} targets, out of the box {verified}/{len(clean)} "
            f"({100 * verified / max(1, len(clean)):.0f}%), false errors {false} "
            f"(on {with_false} targets)"
        ]
        if seeded:
            found = sum(bool(s.seed_found) for s in seeded)
            first = sum(bool(s.seed_code_first) for s in seeded)
            false_seeded = sum(len(s.false_errors) for s in seeded)
            lines.append(
                f"  seeded bugs: {found}/{len(seeded)} found with the right code, "
                f"{first}/{len(seeded)} with it as the only/first code; "
                f"other false errors on seeded copies: {false_seeded}"
            )
        lines.append(f"  wall time {self.seconds:.0f} s")
        return "\n".join(lines)


def summarise(cases: Iterable[Case], seconds: float) -> Summary:
    return Summary([score(c) for c in cases], seconds)
