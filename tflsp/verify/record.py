"""The verification record: what running the catalog examples showed.  Stdlib only.

Written by ``tflsp verify --catalog --keras both --record`` to ``docs/verification.json``
(the path is :data:`DEFAULT_RECORD`); read by the Sphinx extension with :func:`load_record`,
which needs neither TensorFlow nor anything outside the standard library.

Shape (``schema`` 1)::

    {
      "schema": 1,
      "generated": "2025-01-31T12:00:00Z",          # UTC, ISO 8601
      "tflsp": "0.1.0",
      "runs": [                                     # one per Keras version that ran
        {"keras": "3", "tensorflow": "2.21.0", "keras_version": "3.15.1",
         "python": "3.11.7", "platform": "Linux-...", "seconds": 41.2,
         "timestamp": "2025-01-31T12:00:00Z"}
      ],
      "results": [                                  # one per pattern x Keras version x example
        {"pattern": "TFL101", "name": "print-in-graph", "keras": "3", "example": "bad",
         "status": "pass",                          # pass | fail | error | skip
         "expected": {"count": {"^x = ": 1}},       # the [runtime] expectation, as data
         "observed": {"outcome": "finished",        # finished | raised | exited | error
                      "exception": null,            # "Type: message" (shortened) or null
                      "stdout": ["x = Tensor(...)"],  # first lines, shortened
                      "stderr": [],
                      "probe": null},               # the probe's observations, if any
         "checks": [{"expect": "1 stdout line(s) match '^x = '",
                     "observed": "1 line(s)", "ok": true}],
         "note": "",                                # why it was skipped / what went wrong
         "isolated": false,                         # ran in a fresh worker
         "tensorflow": "2.21.0", "keras_version": "3.15.1",
         "timestamp": "2025-01-31T12:00:03Z", "seconds": 0.05}
      ]
    }

A run of a subset (``--select``) updates only the entries it produced; entries of patterns
that no longer exist are dropped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = 1
DEFAULT_RECORD = Path("docs") / "verification.json"
STATUSES = ("pass", "fail", "error", "skip")


class RecordError(ValueError):
    """The record file is not a verification record this version understands."""


@dataclass(frozen=True)
class Result:
    pattern: str
    name: str
    keras: str
    example: str
    status: str
    expected: Mapping[str, Any]
    observed: Mapping[str, Any]
    checks: tuple[Mapping[str, Any], ...] = ()
    note: str = ""
    isolated: bool = False
    tensorflow: str = ""
    keras_version: str = ""
    timestamp: str = ""
    seconds: float = 0.0

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.pattern, self.keras, self.example)

    def as_dict(self) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "name": self.name,
            "keras": self.keras,
            "example": self.example,
            "status": self.status,
            "expected": dict(self.expected),
            "observed": dict(self.observed),
            "checks": [dict(c) for c in self.checks],
            "note": self.note,
            "isolated": self.isolated,
            "tensorflow": self.tensorflow,
            "keras_version": self.keras_version,
            "timestamp": self.timestamp,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class Record:
    generated: str
    tflsp: str
    runs: tuple[Mapping[str, Any], ...]
    results: tuple[Result, ...] = field(default_factory=tuple)

    def for_pattern(self, code: str) -> list[Result]:
        """Results of one pattern, ordered by Keras version (3 first) then bad, good."""
        found = [r for r in self.results if r.pattern == code]
        return sorted(found, key=lambda r: (r.keras != "3", r.keras, r.example != "bad"))

    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for result in self.results:
            counts[result.status] = counts.get(result.status, 0) + 1
        return counts

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "generated": self.generated,
            "tflsp": self.tflsp,
            "runs": [dict(r) for r in self.runs],
            "results": [r.as_dict() for r in self.results],
        }


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _result(raw: Any, index: int) -> Result:
    if not isinstance(raw, Mapping):
        raise RecordError(f"results[{index}] is not an object")
    try:
        status = str(raw["status"])
        if status not in STATUSES:
            raise RecordError(f"results[{index}].status {status!r} is not one of {STATUSES}")
        return Result(
            pattern=str(raw["pattern"]),
            name=str(raw.get("name", "")),
            keras=str(raw["keras"]),
            example=str(raw["example"]),
            status=status,
            expected=dict(raw.get("expected") or {}),
            observed=dict(raw.get("observed") or {}),
            checks=tuple(dict(c) for c in raw.get("checks") or ()),
            note=str(raw.get("note", "")),
            isolated=bool(raw.get("isolated", False)),
            tensorflow=str(raw.get("tensorflow", "")),
            keras_version=str(raw.get("keras_version", "")),
            timestamp=str(raw.get("timestamp", "")),
            seconds=float(raw.get("seconds", 0.0)),
        )
    except KeyError as exc:
        raise RecordError(f"results[{index}] lacks {exc.args[0]!r}") from exc


def parse_record(data: Any) -> Record:
    if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
        raise RecordError(f"not a schema-{SCHEMA} verification record")
    results = data.get("results")
    if not isinstance(results, list):
        raise RecordError("results must be a list")
    return Record(
        generated=str(data.get("generated", "")),
        tflsp=str(data.get("tflsp", "")),
        runs=tuple(dict(r) for r in data.get("runs") or ()),
        results=tuple(_result(raw, i) for i, raw in enumerate(results)),
    )


def load_record(path: str | Path = DEFAULT_RECORD) -> Record:
    """Read a record file; :class:`RecordError` if it is malformed, ``OSError`` if unreadable."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON ({exc})") from exc
    return parse_record(data)


def merge(
    previous: Record | None,
    results: Iterable[Result],
    runs: Iterable[Mapping[str, Any]],
    *,
    known_patterns: set[str],
    tflsp_version: str,
) -> Record:
    """New results replace old ones with the same (pattern, keras, example)."""
    fresh = list(results)
    keys = {r.key for r in fresh}
    kept = [
        r
        for r in (previous.results if previous else ())
        if r.key not in keys and r.pattern in known_patterns
    ]
    new_runs = {str(r["keras"]): dict(r) for r in (previous.runs if previous else ())}
    new_runs.update({str(r["keras"]): dict(r) for r in runs})
    ordered = sorted(
        kept + fresh, key=lambda r: (r.pattern, r.keras != "3", r.keras, r.example != "bad")
    )
    return Record(
        generated=utc_now(),
        tflsp=tflsp_version,
        runs=tuple(new_runs[k] for k in sorted(new_runs, reverse=True)),
        results=tuple(ordered),
    )


def write_record(record: Record, path: str | Path = DEFAULT_RECORD) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(target.suffix + ".tmp")
    temporary.write_text(
        json.dumps(record.as_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    temporary.replace(target)
