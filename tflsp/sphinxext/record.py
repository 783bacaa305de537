"""Read the verification record that ``tflsp verify --catalog --format json`` writes.

The docs must never import TensorFlow, so they read the record as plain JSON.  The verifier
and its record format are being built alongside this extension; until the verifier ships a
stdlib-only loader, :func:`load_record` reads the JSON defensively and normalises it into
:class:`RunRecord` objects.  It is the only place that knows the file's shape, so switching
to the verifier's own loader means replacing this one function.

The verifier's record (``schema`` 1, see ``tflsp/verify/record.py``) is one of the shapes
understood; the others keep older or hand-made records readable (keys are matched loosely):

- a list of entries, or an object holding one under ``results``/``entries``/``patterns``/
  ``records``/``verifications``, with optional top-level ``tensorflow``/``keras`` versions,
  ``timestamp``/``generated``, and ``runs`` (one object per Keras version with its versions);
- an entry names its pattern (``code``/``pattern``) and Keras variant (``keras``: ``3``,
  ``"keras2"``, ``"2.21.0"``…), and either holds ``bad``/``good`` sub-objects or names the
  program it is about (``example``/``program``: ``bad``/``good``);
- verdicts come from ``passed``/``ok``/``pass`` (booleans) or ``status``/``result``
  (``pass``/``fail``/``error``/``skip``…); ``expected``, ``observed``, ``checks`` and ``note``
  are shown as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROGRAMS = ("bad", "good")
_LIST_KEYS = ("results", "entries", "patterns", "records", "verifications", "runs")
_PASS_WORDS = {"pass", "passed", "ok", "success", "succeeded", "true", "as-expected"}
_FAIL_WORDS = {"fail", "failed", "failure", "error", "mismatch", "false", "unexpected"}
_VERSION_RE = re.compile(r"^\d+\.\d+")


class RecordError(ValueError):
    """The record file exists but is not a verification record."""


@dataclass(frozen=True)
class Check:
    """One expectation the verifier compared, in its own (English) words."""

    expect: str
    observed: str
    ok: bool | None


@dataclass(frozen=True)
class ProgramRun:
    """What one example program (``bad`` or ``good``) did under one Keras version."""

    program: str
    passed: bool | None
    expected: Any = None
    observed: Any = None
    status: str | None = None  # the record's word: pass, fail, error, skip…
    note: str = ""
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class RunRecord:
    """One pattern verified under one Keras variant (``keras3`` or ``keras2``)."""

    code: str
    keras: str
    tensorflow_version: str | None
    keras_version: str | None
    timestamp: str | None
    passed: bool | None
    programs: tuple[ProgramRun, ...] = ()


@dataclass(frozen=True)
class VerificationRecord:
    path: Path
    runs: Mapping[tuple[str, str], RunRecord] = field(default_factory=dict)

    def get(self, code: str, keras: str) -> RunRecord | None:
        return self.runs.get((code, keras))


def load_record(path: Path) -> VerificationRecord | None:
    """The record at ``path``; ``None`` when there is no file.  Raises :class:`RecordError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from exc
    defaults, items = _split_top_level(data)
    if items is None:
        raise RecordError(f"{path}: no list of verification entries found")
    grouped: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for item in items:
        if not isinstance(item, Mapping):
            continue
        code = _first_str(item, "code", "pattern", "rule", "id")
        keras = _variant(_first(item, "keras", "keras_variant", "variant", "target_keras"))
        if keras is None:
            keras = _variant(_first(item, "keras_version")) or _variant(defaults.get("keras"))
        if not code or keras is None:
            continue
        grouped.setdefault((code.upper(), keras), []).append(item)
    runs = {key: _merge(key, parts, defaults) for key, parts in sorted(grouped.items())}
    return VerificationRecord(path=path, runs=runs)


def _split_top_level(data: Any) -> tuple[dict[str, Any], list[Any] | None]:
    if isinstance(data, list):
        return {}, data
    if not isinstance(data, Mapping):
        return {}, None
    defaults: dict[str, Any] = {
        "tensorflow": _version_of(_first(data, "tensorflow", "tensorflow_version", "tf")),
        "keras": _first(data, "keras_version", "keras"),
        "timestamp": _first_str(data, "timestamp", "generated", "date", "created"),
        "by_keras": _runs_by_keras(data.get("runs")),
    }
    for key in _LIST_KEYS:
        if key == "runs" and defaults["by_keras"]:
            continue  # the verifier's per-Keras run descriptions, not entries
        value = data.get(key)
        if isinstance(value, list):
            return defaults, value
        if isinstance(value, Mapping):
            # {"TFL101": {...}} or {"TFL101": [{...}, {...}]}
            flat: list[Any] = []
            for code, entry in value.items():
                for part in entry if isinstance(entry, list) else [entry]:
                    if isinstance(part, Mapping):
                        flat.append({"code": code, **part})
            return defaults, flat
    return defaults, None


def _runs_by_keras(value: Any) -> dict[str, Mapping[str, Any]]:
    """``runs: [{"keras": "3", "tensorflow": …, "keras_version": …}]`` by Keras variant."""
    out: dict[str, Mapping[str, Any]] = {}
    if isinstance(value, list):
        for run in value:
            if isinstance(run, Mapping) and "results" not in run:
                variant = _variant(run.get("keras"))
                if variant is not None and ("tensorflow" in run or "keras_version" in run):
                    out[variant] = run
    return out


def _merge(
    key: tuple[str, str], parts: list[Mapping[str, Any]], defaults: Mapping[str, Any]
) -> RunRecord:
    code, keras = key
    programs: dict[str, ProgramRun] = {}
    verdicts: list[bool | None] = []
    tf_version = keras_version = timestamp = None
    for part in parts:
        tf_version = tf_version or _version_of(_first(part, "tensorflow", "tensorflow_version"))
        keras_version = keras_version or _version_of(_first(part, "keras_version", "keras"))
        timestamp = timestamp or _first_str(part, "timestamp", "date", "checked_at")
        verdicts.append(_verdict(part))
        program = _program_name(_first(part, "example", "program", "file", "target"))
        if program is not None:
            programs[program] = _run(program, part)
        for name in PROGRAMS:
            sub = part.get(name)
            if isinstance(sub, Mapping):
                programs[name] = _run(name, sub)
        nested = _first(part, "programs", "examples", "runs")
        for sub in _iter_programs(nested):
            nested_name = _program_name(_first(sub, "example", "program", "file", "name"))
            if nested_name is not None:
                programs[nested_name] = _run(nested_name, sub)
    program_verdicts = [p.passed for p in programs.values()]
    known = [v for v in verdicts + program_verdicts if v is not None]
    passed = all(known) if known else None
    ordered = tuple(programs[name] for name in PROGRAMS if name in programs)
    run: Mapping[str, Any] = defaults.get("by_keras", {}).get(keras, {})
    return RunRecord(
        code=code,
        keras=keras,
        tensorflow_version=tf_version
        or _version_of(run.get("tensorflow"))
        or defaults.get("tensorflow"),
        keras_version=keras_version
        or _version_of(run.get("keras_version"))
        or _version_of(defaults.get("keras")),
        timestamp=timestamp or _first_str(run, "timestamp") or defaults.get("timestamp"),
        passed=passed,
        programs=ordered,
    )


def _iter_programs(value: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(value, list):
        yield from (v for v in value if isinstance(v, Mapping))
    elif isinstance(value, Mapping):
        for name, sub in value.items():
            if isinstance(sub, Mapping):
                yield {"example": name, **sub}


def _run(program: str, data: Mapping[str, Any]) -> ProgramRun:
    status = _first_str(data, "status", "result", "verdict")
    note = _first_str(data, "note", "reason", "message")
    return ProgramRun(
        program=program,
        passed=_verdict(data),
        expected=_first(data, "expected", "expectation", "expect"),
        observed=_first(data, "observed", "actual", "observation", "output"),
        status=status.strip().lower() if status else None,
        note=note.strip() if note else "",
        checks=tuple(_checks(data.get("checks"))),
    )


def _checks(value: Any) -> Iterable[Check]:
    if not isinstance(value, list):
        return
    for item in value:
        if isinstance(item, Mapping):
            ok = item.get("ok")
            yield Check(
                expect=str(_first(item, "expect", "expected", "check") or ""),
                observed=str(_first(item, "observed", "actual") or ""),
                ok=ok if isinstance(ok, bool) else None,
            )


def _verdict(data: Mapping[str, Any]) -> bool | None:
    for key in ("passed", "ok", "pass", "success"):
        value = data.get(key)
        if isinstance(value, bool):
            return value
    for key in ("status", "result", "verdict"):
        value = data.get(key)
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _PASS_WORDS:
                return True
            if word in _FAIL_WORDS:
                return False
    return None


def _program_name(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    stem = Path(value).stem.lower()
    return stem if stem in PROGRAMS else None


def _variant(value: Any) -> str | None:
    """``3``, ``"3"``, ``"keras3"``, ``"3.15.1"`` -> ``"keras3"`` (same for 2)."""
    if isinstance(value, bool) or value is None:
        return None
    text = str(value).strip().lower().removeprefix("keras").strip(" -_")
    major = text.split(".", 1)[0]
    return f"keras{major}" if major in ("2", "3") else None


def _version_of(value: Any) -> str | None:
    if isinstance(value, Mapping):
        value = _first(value, "version", "__version__")
    if isinstance(value, str) and _VERSION_RE.match(value.strip()):
        return value.strip()
    return None


def _first(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data and data[key] is not None:
            return data[key]
    return None


def _first_str(data: Mapping[str, Any], *keys: str) -> str | None:
    value = _first(data, *keys)
    return value if isinstance(value, str) and value.strip() else None
