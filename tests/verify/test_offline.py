"""Verifier pieces that need no TensorFlow: directives, hints, records, the import boundary."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tflsp.catalog import load_pattern
from tflsp.catalog.loader import PATTERNS_DIR
from tflsp.verify.config import GIB, WorkerConfig, parse_size
from tflsp.verify.directives import DirectiveError, find_directive, parse_directive
from tflsp.verify.hints import patterns_for
from tflsp.verify.record import (
    Record,
    RecordError,
    Result,
    load_record,
    merge,
    parse_record,
    write_record,
)

SOURCE = """
import keras

# some comment
# tflsp: verify(args={"units": 5}, input_shape=(4, 3))
@keras.saving.register_keras_serializable()
class Scale(keras.layers.Layer):
    pass


class Other(keras.layers.Layer):  # tflsp: verify(args=[2], dtype="int32")
    pass


def plain(x):
    return x
"""


def test_directive_above_the_decorators() -> None:
    assert find_directive(SOURCE, "Scale") == {"kwargs": {"units": 5}, "input_shape": [4, 3]}


def test_directive_on_the_definition_line() -> None:
    assert find_directive(SOURCE, "Other") == {"args": [2], "dtype": "int32"}


def test_no_directive_and_unknown_target() -> None:
    assert find_directive(SOURCE, "plain") == {}
    assert find_directive(SOURCE, "Missing") == {}


@pytest.mark.parametrize(
    ("comment", "complaint"),
    [
        ("# tflsp: verify(unitz=3)", "unknown verify() argument 'unitz'"),
        ("# tflsp: verify(args=open('x'))", "must be a Python literal"),
        ("# tflsp: verify(args=3)", "args must be a list"),
        ("# tflsp: verify(input_shape=(0, 3))", "positive integers"),
        ("# tflsp: verify(3)", "keyword arguments only"),
        ("# tflsp: verify(args=[)", "cannot parse"),
    ],
)
def test_bad_directives_are_reported(comment: str, complaint: str) -> None:
    with pytest.raises(DirectiveError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        parse_directive(comment, 7)


def test_symptoms_point_at_patterns_with_names_as_wildcards() -> None:
    base = load_pattern(PATTERNS_DIR / "TFL101-print-in-graph")
    unregistered = dataclasses.replace(
        base,
        code="TFL999",
        symptoms=("TypeError: Could not locate class 'Model'. Make sure custom classes",),
    )
    numpy = dataclasses.replace(
        base,
        code="TFL998",
        symptoms=("AttributeError: 'SymbolicTensor' object has no attribute 'numpy'",),
    )
    message = "Could not locate class 'MyNet'. Make sure custom classes and functions are decorated"
    assert [p.code for p in patterns_for(message, [unregistered, numpy])] == ["TFL999"]
    # Mostly-names symptoms match only exactly: another attribute error is not this pattern.
    assert patterns_for("'Adam' object has no attribute 'lr'", [unregistered, numpy]) == []
    assert [
        p.code for p in patterns_for("x 'SymbolicTensor' object has no attribute 'numpy'", [numpy])
    ] == ["TFL998"]


def _result(pattern: str, keras: str, example: str, status: str = "pass") -> Result:
    return Result(
        pattern=pattern,
        name="n",
        keras=keras,
        example=example,
        status=status,
        expected={},
        observed={},
    )


def test_record_round_trip_and_merge(tmp_path: Path) -> None:
    path = tmp_path / "docs" / "verification.json"
    first = merge(
        None,
        [
            _result("TFL101", "3", "bad"),
            _result("TFL101", "3", "good"),
            _result("TFL900", "3", "bad"),
        ],
        [{"keras": "3", "tensorflow": "2.21.0"}],
        known_patterns={"TFL101", "TFL900"},
        tflsp_version="0.1.0",
    )
    write_record(first, path)
    loaded = load_record(path)
    assert [r.key for r in loaded.results] == [
        ("TFL101", "3", "bad"),
        ("TFL101", "3", "good"),
        ("TFL900", "3", "bad"),
    ]
    # A partial run replaces its own entries, keeps the others, drops removed patterns.
    second = merge(
        loaded,
        [_result("TFL101", "3", "bad", "fail"), _result("TFL101", "2", "bad")],
        [{"keras": "2", "tensorflow": "2.21.0"}],
        known_patterns={"TFL101"},
        tflsp_version="0.1.0",
    )
    assert [(r.key, r.status) for r in second.results] == [
        (("TFL101", "3", "bad"), "fail"),
        (("TFL101", "3", "good"), "pass"),
        (("TFL101", "2", "bad"), "pass"),
    ]
    assert [r["keras"] for r in second.runs] == ["3", "2"]
    assert second.summary()["fail"] == 1
    assert [r.example for r in second.for_pattern("TFL101")] == ["bad", "good", "bad"]


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"schema": 2, "results": []},
        {"schema": 1, "results": {}},
        {"schema": 1, "results": [{"pattern": "X"}]},
        {
            "schema": 1,
            "results": [{"pattern": "X", "keras": "3", "example": "bad", "status": "great"}],
        },
    ],
)
def test_malformed_records_are_refused(data: object) -> None:
    with pytest.raises(RecordError):
        parse_record(data)


def test_record_json_is_what_the_docstring_promises(tmp_path: Path) -> None:
    record = Record(generated="t", tflsp="0", runs=(), results=(_result("TFL101", "3", "bad"),))
    write_record(record, tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert set(data) == {"schema", "generated", "tflsp", "runs", "results"}
    assert set(data["results"][0]) >= {
        "pattern",
        "keras",
        "example",
        "status",
        "expected",
        "observed",
        "tensorflow",
        "keras_version",
        "timestamp",
    }


def test_nothing_outside_the_worker_imports_tensorflow() -> None:
    code = (
        "import sys\n"
        "import tflsp.verify, tflsp.verify.record, tflsp.verify.catalog_check, tflsp.verify.report\n"
        "import tflsp.verify.agent, tflsp.cli.verify, tflsp.cli.main\n"
        "tflsp.cli.main.build_parser()\n"
        "heavy = [m for m in ('tensorflow', 'keras', 'tf_keras', 'numpy') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_config_sets_keras_before_tensorflow_is_imported() -> None:
    assert WorkerConfig(keras="2").environment({})["TF_USE_LEGACY_KERAS"] == "1"
    assert "TF_USE_LEGACY_KERAS" not in WorkerConfig(keras="3").environment(
        {"TF_USE_LEGACY_KERAS": "1"}
    )
    with pytest.raises(ValueError):
        WorkerConfig(keras="4")
    assert (
        parse_size("6G") == 6 * GIB
        and parse_size("512MiB") == 512 * 1024**2
        and parse_size("0") == 0
    )


def test_findings_become_editor_diagnostics() -> None:
    from tflsp.verify.report import diagnostics, render_text

    result = {
        "probe": "tracking",
        "path": "m.py",
        "target": "Scale",
        "outcome": "fail",
        "findings": [
            {
                "message": "variable w is not tracked",
                "line": 12,
                "severity": "error",
                "patterns": ["TFL301"],
            },
            {"message": "3 traces", "line": None, "severity": "info"},
        ],
        "observations": {"outcome": "fail", "untracked": 1},
        "versions": {"tensorflow": "2.21.0", "keras": "3.15.1"},
        "seconds": 0.05,
    }
    assert diagnostics(result, fallback_line=10) == [
        {
            "line": 11,
            "severity": 1,
            "message": "tracking: variable w is not tracked",
            "source": "tflsp-verify",
            "code": "TFL301",
        },
        {
            "line": 9,
            "severity": 3,
            "message": "tracking: 3 traces",
            "source": "tflsp-verify",
            "code": None,
        },
    ]
    text = render_text(result)
    assert "m.py:12: error: variable w is not tracked [TFL301]" in text
    assert "observed: untracked=1" in text


def test_recorded_output_hides_memory_addresses() -> None:
    from tflsp.verify.catalog_check import _lines

    text = "WARNING: 5 calls to <function scaled at 0x7fb5caf16ca0> triggered retracing\nok 0x10"
    assert _lines(text) == [
        "WARNING: 5 calls to <function scaled at 0x…> triggered retracing",
        "ok 0x10",
    ]
