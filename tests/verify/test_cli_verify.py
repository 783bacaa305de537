"""``tflsp verify`` end to end: probes on user files, the catalog run, the record file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.verify.conftest import PROGRAMS
from tflsp.cli.main import main
from tflsp.verify.record import load_record


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 2
    assert main(["verify", "--catalog", "x.py::A"]) == 2
    assert main(["verify", "no-separator.py"]) == 2
    assert main(["verify", "--args", "{oops", f"{PROGRAMS / 'layers.py'}::Tracked"]) == 2
    assert main(["verify", "missing.py::A"]) == 2
    assert "tflsp verify: error:" in capsys.readouterr().err


def test_validate_needs_no_tensorflow(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--validate", "--select", "TFL101,TFL102"])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 runtime section(s) checked, 0 malformed" in out


@pytest.mark.tf
def test_probe_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    target = f"{PROGRAMS / 'layers.py'}::RawVariable"
    assert main(["verify", target, "--probe", "tracking"]) == 1
    text = capsys.readouterr().out
    assert "tracking" in text and "FAIL" in text and "is created but not tracked" in text
    assert (
        main(
            [
                "verify",
                f"{PROGRAMS / 'layers.py'}::Tracked",
                "--probe",
                "tracking",
                "--format",
                "json",
            ]
        )
        == 0
    )
    (result,) = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "pass" and result["observations"]["untracked"] == 0
    assert result["keras_major"] == "3"


@pytest.mark.tf
def test_probe_arguments_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    target = f"{PROGRAMS / 'layers.py'}::NoDefaults"
    code = main(
        [
            "verify",
            target,
            "--probe",
            "tracking",
            "--args",
            '{"units": 3}',
            "--input-shape",
            "2,5",
            "--format",
            "json",
        ]
    )
    (result,) = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["details"]["input_shape"] == [2, 5]
    assert result["details"]["weights"][0]["shape"] == [5, 3]


@pytest.mark.tf
@pytest.mark.timeout(600)
def test_catalog_subset_writes_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record_path = tmp_path / "verification.json"
    code = main(
        [
            "verify",
            "--catalog",
            "--select",
            "TFL101",
            "--keras",
            "both",
            "--record",
            str(record_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "TFL101 print-in-graph" in out and "keras3  bad: pass  good: pass" in out
    assert "4 passed, 0 failed" in out
    record = load_record(record_path)
    assert [(r.keras, r.example, r.status) for r in record.for_pattern("TFL101")] == [
        ("3", "bad", "pass"),
        ("3", "good", "pass"),
        ("2", "bad", "pass"),
        ("2", "good", "pass"),
    ]
    bad = record.for_pattern("TFL101")[0]
    assert bad.observed["stdout"] == ['x = Tensor("x:0", shape=(), dtype=float32)']
    assert bad.tensorflow.startswith("2.") and bad.keras_version.startswith("3.")
    assert {run["keras"] for run in record.runs} == {"3", "2"}


@pytest.mark.tf
@pytest.mark.timeout(300)
def test_catalog_json_output_is_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    from tflsp.verify.record import parse_record

    assert main(["verify", "--catalog", "--select", "numpy-in-graph", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    record = parse_record(data)
    assert [(r.pattern, r.example, r.status) for r in record.results] == [
        ("TFL102", "bad", "pass"),
        ("TFL102", "good", "pass"),
    ]
    assert data["summary"] == {"pass": 2, "fail": 0, "error": 0, "skip": 0}
    assert "AttributeError" in record.results[0].observed["exception"]
