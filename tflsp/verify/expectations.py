"""The ``[runtime]`` section of ``pattern.toml``: schema and validation.  Stdlib only.

What running a pattern's examples must show (see CONTRIBUTING.md for the prose version)::

    [runtime]
    isolate = true        # optional: run each example in a fresh worker (global TF switches)
    timeout = 120         # optional: seconds per example (default: the worker's timeout)
    skip = "why"          # optional: the examples cannot show the pitfall by running

    [runtime.bad]         # and [runtime.good]
    raises = "AttributeError"           # the program must raise this (class name or a base)
    match = "has no attribute 'numpy'"  # regex searched in the exception message
    stdout = ["^x = "]                  # each regex must match a stdout line
    stdout_not = ["^x = 2"]             # no stdout line may match
    count = { "^x = " = 1 }             # exact number of stdout lines matching
    stderr = ["retracing"]              # each regex must match somewhere in stderr
    stderr_not = ["Traceback"]          # no match allowed in stderr
    stderr_count = { "^x = " = 3 }      # exact number of stderr lines matching
    [runtime.bad.probe]                 # optional: run a probe on something the example defines
    kind = "tracking"                   # tracking | modes | saveload
    target = "Counter"                  # a top-level class or function of the example
    args = { units = 4 }                # optional constructor keyword arguments
    input_shape = [2, 3]                # optional sample input shape (with the batch axis)
    expect = { untracked = ">= 1" }     # observation -> comparison
    [runtime.bad.keras2]                # replaces [runtime.bad] on Keras 2 (same keys)

A missing ``[runtime.good]`` means "good.py finishes without an exception".  ``[runtime.bad]``
is required (a bad example that only has to finish proves nothing) unless ``skip`` says why.
Comparing a run with these expectations is :mod:`tflsp.verify.checks`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tflsp.catalog import Pattern

EXAMPLES = ("bad", "good")
KERAS_KEYS = {"keras3": "3", "keras2": "2"}
TOP_KEYS = {"isolate", "timeout", "skip", "bad", "good"}
EXAMPLE_KEYS = {
    "raises",
    "match",
    "stdout",
    "stdout_not",
    "count",
    "stderr",
    "stderr_not",
    "stderr_count",
    "probe",
}
PROBE_KEYS = {"kind", "target", "args", "kwargs", "input_shape", "dtype", "inputs", "expect"}

# What each probe reports in its ``observations`` (what ``expect`` may compare).
PROBE_OBSERVATIONS: dict[str, frozenset[str]] = {
    "tracking": frozenset(
        {"outcome", "created", "tracked", "untracked", "untrained", "created_on_second_call"}
    ),
    "modes": frozenset(
        {
            "outcome",
            "mismatches",
            "one_mode_errors",
            "eager_prints",
            "graph_prints",
            "attribute_differences",
            "traces_same_shape",
            "traces_python_scalars",
            "traces_shapes",
            "random_outputs",
        }
    ),
    "saveload": frozenset(
        {"outcome", "failed_step", "load_fails", "custom_objects_fixes", "max_diff"}
    ),
}
COMPARISON_RE = re.compile(r"^\s*(==|!=|>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")


class RuntimeSpecError(ValueError):
    """A ``[runtime]`` section is malformed.  The message lists every problem."""


@dataclass(frozen=True)
class ProbeSpec:
    kind: str
    target: str
    options: Mapping[str, Any]
    expect: Mapping[str, Any]

    def request(self, path: str, source: str) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": path,
            "source": source,
            "target": self.target,
            **self.options,
        }


@dataclass(frozen=True)
class ExampleSpec:
    """What one example must show on one Keras version."""

    raises: str | None = None
    match: str | None = None
    stdout: tuple[str, ...] = ()
    stdout_not: tuple[str, ...] = ()
    count: Mapping[str, int] = field(default_factory=dict)
    stderr: tuple[str, ...] = ()
    stderr_not: tuple[str, ...] = ()
    stderr_count: Mapping[str, int] = field(default_factory=dict)
    probe: ProbeSpec | None = None

    def describe(self) -> dict[str, Any]:
        """The expectation as plain data (for records and reports)."""
        out: dict[str, Any] = {}
        if self.raises:
            out["raises"] = self.raises
        if self.match:
            out["match"] = self.match
        for key in ("stdout", "stdout_not", "stderr", "stderr_not"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        for key in ("count", "stderr_count"):
            if getattr(self, key):
                out[key] = dict(getattr(self, key))
        if self.probe is not None:
            out["probe"] = {
                "kind": self.probe.kind,
                "target": self.probe.target,
                "expect": dict(self.probe.expect),
            }
        if not out:
            out["finishes"] = True
        return out


@dataclass(frozen=True)
class RuntimeSpec:
    code: str
    examples: Mapping[tuple[str, str], ExampleSpec]  # (example, keras) -> spec
    isolate: bool = False
    timeout: float | None = None
    skip: str | None = None

    def for_example(self, example: str, keras: str) -> ExampleSpec:
        return self.examples[(example, keras)]


# -- validation -------------------------------------------------------------------------------
def _regexes(value: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"{where} must be an array of regex strings")
        return ()
    for item in value:
        _compile(item, where, problems)
    return tuple(value)


def _compile(pattern: str, where: str, problems: list[str]) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        problems.append(f"{where}: invalid regex {pattern!r} ({exc})")


def _counts(value: Any, where: str, problems: list[str]) -> dict[str, int]:
    if not isinstance(value, Mapping):
        problems.append(f"{where} must be a table of regex = count")
        return {}
    out = {}
    for regex, number in value.items():
        _compile(regex, where, problems)
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            problems.append(f"{where}[{regex!r}] must be a non-negative integer")
            continue
        out[regex] = number
    return out


def _comparison_ok(value: Any) -> bool:
    if isinstance(value, (bool, int, float)):
        return True
    return isinstance(value, str)


def _probe(value: Any, where: str, problems: list[str], source: str | None) -> ProbeSpec | None:
    if not isinstance(value, Mapping):
        problems.append(f"{where} must be a table")
        return None
    unknown = set(value) - PROBE_KEYS
    if unknown:
        problems.append(f"{where} has unknown keys {sorted(unknown)}")
    kind = value.get("kind")
    if kind not in PROBE_OBSERVATIONS:
        problems.append(f"{where}.kind must be one of {sorted(PROBE_OBSERVATIONS)}")
        return None
    target = value.get("target")
    if not isinstance(target, str) or not target.isidentifier():
        problems.append(f"{where}.target must name a top-level class or function")
        return None
    if source is not None and target not in _top_level_names(source):
        problems.append(f"{where}.target {target!r} is not defined at the top level of the example")
    expect = value.get("expect")
    if not isinstance(expect, Mapping) or not expect:
        problems.append(f"{where}.expect must be a non-empty table of observation = comparison")
        expect = {}
    for key, wanted in expect.items():
        if key not in PROBE_OBSERVATIONS[kind]:
            problems.append(
                f"{where}.expect: {kind} reports no {key!r} (known: {sorted(PROBE_OBSERVATIONS[kind])})"
            )
        if not _comparison_ok(wanted):
            problems.append(f"{where}.expect.{key} must be a number, a string or a boolean")
    options = {
        k: value[k] for k in ("args", "kwargs", "input_shape", "dtype", "inputs") if k in value
    }
    if "input_shape" in options and not (
        isinstance(options["input_shape"], list)
        and all(isinstance(n, int) and n > 0 for n in options["input_shape"])
    ):
        problems.append(f"{where}.input_shape must be an array of positive integers")
    if "args" in options and not isinstance(options["args"], (Mapping, list)):
        problems.append(f"{where}.args must be a table (keywords) or an array (positional)")
    return ProbeSpec(kind=kind, target=target, options=options, expect=dict(expect))


def _top_level_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _example(
    value: Any, where: str, example: str, problems: list[str], source: str | None
) -> ExampleSpec:
    if not isinstance(value, Mapping):
        problems.append(f"{where} must be a table")
        return ExampleSpec()
    unknown = set(value) - EXAMPLE_KEYS - set(KERAS_KEYS)
    if unknown:
        problems.append(f"{where} has unknown keys {sorted(unknown)}")
    raises = value.get("raises")
    if raises is not None and not (
        isinstance(raises, str) and raises.replace(".", "").isidentifier()
    ):
        problems.append(f"{where}.raises must be an exception class name")
        raises = None
    match = value.get("match")
    if match is not None:
        if not isinstance(match, str):
            problems.append(f"{where}.match must be a regex string")
            match = None
        else:
            _compile(match, f"{where}.match", problems)
            if raises is None:
                problems.append(f"{where}.match needs raises (it is matched against the exception)")
    if example == "good" and raises is not None:
        problems.append(f"{where}.raises: good.py must not raise; it shows the fix")
    spec = ExampleSpec(
        raises=raises,
        match=match,
        stdout=_regexes(value.get("stdout", []), f"{where}.stdout", problems),
        stdout_not=_regexes(value.get("stdout_not", []), f"{where}.stdout_not", problems),
        count=_counts(value.get("count", {}), f"{where}.count", problems),
        stderr=_regexes(value.get("stderr", []), f"{where}.stderr", problems),
        stderr_not=_regexes(value.get("stderr_not", []), f"{where}.stderr_not", problems),
        stderr_count=_counts(value.get("stderr_count", {}), f"{where}.stderr_count", problems),
        probe=_probe(value["probe"], f"{where}.probe", problems, source)
        if "probe" in value
        else None,
    )
    if example == "bad" and spec.describe() == {"finishes": True}:
        problems.append(
            f"{where} expects nothing observable; say what the bad example shows "
            "(raises, stdout, count, stderr or probe)"
        )
    return spec


def parse_runtime(pattern: Pattern) -> RuntimeSpec:
    """Validate ``pattern.runtime``; raise :class:`RuntimeSpecError` listing every problem."""
    problems: list[str] = []
    raw = pattern.runtime
    if not raw:
        raise RuntimeSpecError(
            f"{pattern.code}: no [runtime] section; add [runtime.bad] (and [runtime.good]) "
            'expectations, or runtime.skip = "why running cannot show it"'
        )
    unknown = set(raw) - TOP_KEYS
    if unknown:
        problems.append(f"runtime has unknown keys {sorted(unknown)}")
    skip = raw.get("skip")
    if skip is not None and not (isinstance(skip, str) and skip.strip()):
        problems.append("runtime.skip must be a non-empty reason")
    isolate = raw.get("isolate", False)
    if not isinstance(isolate, bool):
        problems.append("runtime.isolate must be true or false")
    timeout = raw.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
    ):
        problems.append("runtime.timeout must be a positive number of seconds")

    versions = [KERAS_KEYS[k] for k in pattern.keras if k in KERAS_KEYS]
    examples: dict[tuple[str, str], ExampleSpec] = {}
    if skip is None and "bad" not in raw:
        problems.append("runtime.bad is required (or runtime.skip with a reason)")
    for example in EXAMPLES:
        base = raw.get(example, {})
        source = _read(pattern, example)
        if not isinstance(base, Mapping):
            problems.append(f"runtime.{example} must be a table")
            continue
        for key in KERAS_KEYS:
            if key in base and KERAS_KEYS[key] not in versions:
                problems.append(
                    f"runtime.{example}.{key} overrides a Keras version the pattern does not apply to"
                )
        for version in versions:
            key = f"keras{version}"
            chosen = base.get(key, base)
            where = f"runtime.{example}.{key}" if key in base else f"runtime.{example}"
            if skip is not None and not chosen:
                continue
            spec = _example(
                {k: v for k, v in chosen.items() if k not in KERAS_KEYS},
                where,
                example,
                problems,
                source,
            )
            examples[(example, version)] = spec
    if problems:
        raise RuntimeSpecError(f"{pattern.code}: " + "; ".join(dict.fromkeys(problems)))
    return RuntimeSpec(
        code=pattern.code,
        examples=examples,
        isolate=bool(isolate),
        timeout=float(timeout) if timeout is not None else None,
        skip=skip,
    )


def _read(pattern: Pattern, example: str) -> str | None:
    path = pattern.folder / f"{example}.py"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def validate_catalog(patterns: list[Pattern]) -> list[str]:
    """Every problem of every runtime section (empty when all are well-formed)."""
    problems = []
    for pattern in patterns:
        try:
            parse_runtime(pattern)
        except RuntimeSpecError as exc:
            problems.append(str(exc))
    return problems
