"""The [runtime] schema: every catalog entry is well-formed; malformed ones fail loudly."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from tflsp.catalog import Pattern, load_catalog, load_pattern
from tflsp.catalog.loader import PATTERNS_DIR
from tflsp.verify.checks import check_probe, check_program, compare
from tflsp.verify.expectations import (
    ExampleSpec,
    RuntimeSpecError,
    parse_runtime,
    validate_catalog,
)


def test_every_catalog_runtime_section_is_well_formed() -> None:
    assert validate_catalog(list(load_catalog())) == []


def _pattern(runtime: dict[str, Any], keras: tuple[str, ...] = ("keras3", "keras2")) -> Pattern:
    base = load_pattern(PATTERNS_DIR / "TFL101-print-in-graph")  # bad.py defines `double`
    return dataclasses.replace(base, runtime=runtime, keras=keras)


@pytest.mark.parametrize(
    ("runtime", "complaint"),
    [
        ({}, "no [runtime] section"),
        ({"good": {}}, "runtime.bad is required"),
        ({"bad": {"raises": "ValueError"}, "verify": True}, "unknown keys ['verify']"),
        ({"bad": {"rasies": "ValueError"}}, "unknown keys ['rasies']"),
        ({"bad": {"stdout": ["(unclosed"]}}, "invalid regex"),
        ({"bad": {"stdout": "^x"}}, "must be an array of regex strings"),
        ({"bad": {"match": "numpy"}}, "match needs raises"),
        ({"bad": {"count": {"^x": -1}}}, "non-negative integer"),
        ({"bad": {"count": {"^x": True}}}, "non-negative integer"),
        ({"bad": {"stdout": ["x"]}, "good": {"raises": "ValueError"}}, "good.py must not raise"),
        ({"bad": {}}, "expects nothing observable"),
        ({"bad": {"raises": "Value Error"}}, "exception class name"),
        ({"bad": {"stdout": ["x"]}, "timeout": -3}, "positive number"),
        ({"bad": {"stdout": ["x"]}, "isolate": "yes"}, "true or false"),
        (
            {"bad": {"probe": {"kind": "speed", "target": "double", "expect": {"x": 1}}}},
            "kind must be one of",
        ),
        (
            {"bad": {"probe": {"kind": "modes", "target": "nowhere", "expect": {"mismatches": 0}}}},
            "not defined at the top level",
        ),
        (
            {"bad": {"probe": {"kind": "modes", "target": "double", "expect": {"untracked": 1}}}},
            "modes reports no 'untracked'",
        ),
        (
            {"bad": {"probe": {"kind": "modes", "target": "double"}}},
            "expect must be a non-empty table",
        ),
        (
            {
                "bad": {
                    "probe": {
                        "kind": "tracking",
                        "target": "double",
                        "expect": {"untracked": 1},
                        "input_shape": [0],
                    }
                }
            },
            "positive integers",
        ),
    ],
)
def test_malformed_runtime_sections_fail_loudly(runtime: dict[str, Any], complaint: str) -> None:
    with pytest.raises(RuntimeSpecError) as info:
        parse_runtime(_pattern(runtime))
    assert complaint in str(info.value)
    assert str(info.value).startswith("TFL101: ")


def test_override_for_a_keras_version_the_pattern_does_not_cover() -> None:
    runtime = {"bad": {"stdout": ["x"], "keras2": {"stdout": ["y"]}}}
    with pytest.raises(RuntimeSpecError, match="does not apply to"):
        parse_runtime(_pattern(runtime, keras=("keras3",)))


def test_every_problem_is_listed_at_once() -> None:
    with pytest.raises(RuntimeSpecError) as info:
        parse_runtime(
            _pattern({"bad": {"stdout": ["("], "count": {"x": -1}}, "good": {"raises": "E"}})
        )
    message = str(info.value)
    assert "invalid regex" in message and "non-negative" in message and "must not raise" in message


def test_keras2_override_replaces_the_example_spec() -> None:
    spec = parse_runtime(_pattern({"bad": {"count": {"^x": 1}, "keras2": {"count": {"^x": 2}}}}))
    assert spec.for_example("bad", "3").count == {"^x": 1}
    assert spec.for_example("bad", "2").count == {"^x": 2}
    assert spec.for_example("good", "3").describe() == {"finishes": True}


def test_skip_needs_no_expectations() -> None:
    spec = parse_runtime(_pattern({"skip": "needs a GPU"}))
    assert spec.skip == "needs a GPU"
    assert spec.examples == {}


def _run(**fields: Any) -> dict[str, Any]:
    run = {"outcome": "finished", "exception": None, "stdout": "", "stderr": ""}
    run.update(fields)
    return run


def _error(kind: str, message: str, mro: list[str]) -> dict[str, Any]:
    return {"type": kind, "qualname": f"x.{kind}", "mro": mro, "message": message}


def test_raises_accepts_a_base_class_and_checks_the_message() -> None:
    spec = ExampleSpec(raises="ValueError", match="could not be lifted")
    raised = _run(
        outcome="raised",
        exception=_error(
            "InvalidArgumentError",
            "could not be lifted out",
            ["InvalidArgumentError", "ValueError", "Exception"],
        ),
    )
    assert [c.ok for c in check_program(spec, raised)] == [True, True]
    wrong = _run(
        outcome="raised",
        exception=_error("TypeError", "could not be lifted", ["TypeError", "Exception"]),
    )
    assert [c.ok for c in check_program(spec, wrong)] == [False, True]
    assert [c.ok for c in check_program(spec, _run())] == [False]


def test_a_program_that_must_finish_fails_when_it_raises() -> None:
    checks = check_program(
        ExampleSpec(), _run(outcome="raised", exception=_error("KeyError", "'k'", ["KeyError"]))
    )
    assert not checks[0].ok
    assert "raised KeyError" in checks[0].observed


def test_counts_and_regexes_on_output() -> None:
    spec = ExampleSpec(
        count={"^x = ": 1},
        stdout=["^done$"],
        stdout_not=["^x = 2"],
        stderr=["retracing"],
        stderr_not=["Traceback"],
        stderr_count={"^step": 2},
    )
    good = _run(stdout="x = 1\ndone\n", stderr="step\nstep\nWARNING: retracing\n")
    assert all(c.ok for c in check_program(spec, good))
    bad = _run(stdout="x = 1\nx = 2\n", stderr="Traceback\nstep\n")
    failed = [c.expect for c in check_program(spec, bad) if not c.ok]
    assert failed == [
        "stdout has a line matching '^done$'",
        "no stdout line matches '^x = 2'",
        "1 stdout line(s) match '^x = '",
        "stderr matches 'retracing'",
        "stderr does not match 'Traceback'",
        "2 stderr line(s) match '^step'",
    ]


@pytest.mark.parametrize(
    ("observed", "wanted", "result"),
    [
        (2, ">= 1", True),
        (0, ">= 1", False),
        (3, "== 3", True),
        (3, "< 3", False),
        (0, 0, True),
        ("load", "load", True),
        ("none", "load", False),
        (True, True, True),
        (1, True, False),
        (None, ">= 0", False),
    ],
)
def test_compare(observed: Any, wanted: Any, result: bool) -> None:
    assert compare(observed, wanted) is result


def test_probe_expectations_compare_the_probe_observations() -> None:
    spec = parse_runtime(
        _pattern(
            {
                "bad": {
                    "probe": {
                        "kind": "modes",
                        "target": "double",
                        "expect": {"graph_prints": "< 3", "outcome": "fail"},
                    }
                }
            }
        )
    ).for_example("bad", "3")
    assert spec.probe is not None
    assert spec.probe.request("bad.py", "src")["target"] == "double"
    result = {"observations": {"graph_prints": 1, "outcome": "fail"}}
    assert [c.ok for c in check_probe(spec.probe, result)] == [True, True]
    checks = check_probe(spec.probe, {"observations": {"graph_prints": 3, "outcome": "pass"}})
    assert [(c.ok, c.observed) for c in checks] == [
        (False, "graph_prints = 3"),
        (False, "outcome = pass"),
    ]
    assert not check_probe(spec.probe, {"outcome": "error"})[0].ok


# A regex that spells out float digits (0\.4248, 1\.41703, 0\.99999\d*) holds on one CPU and not
# on another: summation order and vector width change the last digits.  Examples print what they
# prove (np.allclose(...) -> True) instead.  Short exact values (9.125, 0.5: binary fractions
# computed exactly) are fine.
FLOAT_DIGITS_RE = re.compile(r"\d\\\.\d{4,}|\d\\\.\d*\\d")


def test_no_runtime_expectation_depends_on_float_digits() -> None:
    fragile = []
    for pattern in load_catalog():
        runtime = parse_runtime(pattern)
        for (example, keras), spec in runtime.examples.items():
            texts = [*spec.stdout, *spec.stdout_not, *spec.count, *spec.stderr, *spec.stderr_count]
            fragile += [
                f"{pattern.code} {example}.py keras{keras}: {text}"
                for text in texts
                if FLOAT_DIGITS_RE.search(text)
            ]
    assert not fragile, "\n".join(fragile)
