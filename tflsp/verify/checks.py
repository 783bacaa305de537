"""Comparing what a program or probe did with its ``[runtime]`` expectation.  Stdlib only.

One :class:`Check` per claim, each saying what was expected and what was observed, so a
failing catalog entry reads like a test failure and the docs can show every comparison.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tflsp.verify.expectations import COMPARISON_RE, ExampleSpec, ProbeSpec


@dataclass
class Check:
    expect: str
    observed: str
    ok: bool

    def as_dict(self) -> dict[str, Any]:
        return {"expect": self.expect, "observed": self.observed, "ok": self.ok}


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _short(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_program(spec: ExampleSpec, run: Mapping[str, Any]) -> list[Check]:
    """Compare a ``run_program`` result with the expectation; one :class:`Check` per claim."""
    checks: list[Check] = []
    exception = run.get("exception")
    if spec.raises is None:
        observed = (
            "finished"
            if exception is None
            else f"raised {exception['type']}: {_short(exception['message'], 160)}"
        )
        if run.get("outcome") == "exited":
            observed = f"exited with status {run.get('exit_code')}"
        checks.append(Check("finishes without an exception", observed, observed == "finished"))
    else:
        if exception is None:
            checks.append(Check(f"raises {spec.raises}", "finished without an exception", False))
        else:
            names = {exception["type"], exception.get("qualname", ""), *exception.get("mro", [])}
            wanted = spec.raises.rsplit(".", 1)[-1] if "." in spec.raises else spec.raises
            ok = spec.raises in names or wanted in names
            checks.append(Check(f"raises {spec.raises}", f"raised {exception['type']}", ok))
            if spec.match is not None:
                message = exception.get("message", "")
                found = re.search(spec.match, message, re.MULTILINE) is not None
                checks.append(Check(f"message matches {spec.match!r}", _short(message), found))
    stdout_lines = _lines(run.get("stdout", ""))
    stderr_text = run.get("stderr", "")
    stderr_lines = _lines(stderr_text)
    for regex in spec.stdout:
        lines = [line for line in stdout_lines if re.search(regex, line)]
        checks.append(
            Check(
                f"stdout has a line matching {regex!r}",
                _short(lines[0]) if lines else "no such line",
                bool(lines),
            )
        )
    for regex in spec.stdout_not:
        lines = [line for line in stdout_lines if re.search(regex, line)]
        checks.append(
            Check(
                f"no stdout line matches {regex!r}",
                _short(lines[0]) if lines else "none",
                not lines,
            )
        )
    for regex, number in spec.count.items():
        hits = sum(1 for line in stdout_lines if re.search(regex, line))
        checks.append(
            Check(f"{number} stdout line(s) match {regex!r}", f"{hits} line(s)", hits == number)
        )
    for regex in spec.stderr:
        hit = re.search(regex, stderr_text, re.MULTILINE)
        checks.append(
            Check(
                f"stderr matches {regex!r}",
                _short(hit.group(0)) if hit else "no match",
                hit is not None,
            )
        )
    for regex in spec.stderr_not:
        hit = re.search(regex, stderr_text, re.MULTILINE)
        checks.append(
            Check(
                f"stderr does not match {regex!r}",
                _short(hit.group(0)) if hit else "no match",
                hit is None,
            )
        )
    for regex, number in spec.stderr_count.items():
        hits = sum(1 for line in stderr_lines if re.search(regex, line))
        checks.append(
            Check(f"{number} stderr line(s) match {regex!r}", f"{hits} line(s)", hits == number)
        )
    return checks


def compare(observed: Any, wanted: Any) -> bool:
    """``wanted`` is a literal (equality) or a string such as ``">= 1"``."""
    if isinstance(wanted, str):
        match = COMPARISON_RE.match(wanted)
        if (
            match is not None
            and isinstance(observed, (int, float))
            and not isinstance(observed, bool)
        ):
            op, number = match.group(1), float(match.group(2))
            return {
                "==": observed == number,
                "!=": observed != number,
                ">=": observed >= number,
                "<=": observed <= number,
                ">": observed > number,
                "<": observed < number,
            }[op]
        return str(observed) == wanted
    if isinstance(wanted, bool) or isinstance(observed, bool):
        return observed is wanted
    return bool(observed == wanted)


def check_probe(spec: ProbeSpec, result: Mapping[str, Any]) -> list[Check]:
    observations = result.get("observations") or {}
    checks = []
    for key, wanted in spec.expect.items():
        observed = observations.get(key, "not reported")
        shown = (
            f"{key} {wanted}"
            if isinstance(wanted, str) and COMPARISON_RE.match(wanted)
            else f"{key} = {wanted}"
        )
        checks.append(
            Check(
                f"{spec.kind} probe on {spec.target}: {shown}",
                f"{key} = {observed}",
                compare(observed, wanted),
            )
        )
    return checks
