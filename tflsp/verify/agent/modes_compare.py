"""Turning the two modes' records into findings and observations for the ``modes`` probe."""

from __future__ import annotations

import re
from typing import Any

from tflsp.verify.agent.probes import ProbeContext
from tflsp.verify.agent.samples import max_difference

TOLERANCE = 1e-5
CALLS = 3

_KERAS_WRAPPER_RE = re.compile(
    r"Exception encountered when calling [^\n]*\n+(?P<body>.*?)(?:\n+Arguments received by|\Z)",
    re.DOTALL,
)


def exception_summary(message: str) -> str:
    """The sentence of an exception message that says what went wrong.

    Keras wraps errors from ``call()`` ("Exception encountered when calling X.call(). <the
    error> Arguments received by X.call(): ..."), and TensorFlow's errors from graph code
    start with "in user code:" and a traceback; both hide the error itself.
    """
    text = message.strip()
    match = _KERAS_WRAPPER_RE.search(text)
    if match and match.group("body").strip():
        text = match.group("body").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    if lines[0].startswith("in user code:") or lines[0].endswith(":"):
        for line in reversed(lines):
            if re.match(r"^[A-Za-z_][\w.]*(Error|Exception)\b", line) or ": " in line:
                return line
        return lines[-1]
    return lines[0]


def _code_for_one_mode_error(error: dict[str, Any], is_class: bool) -> tuple[str, ...]:
    """The cause of a graph-only error, when the error names it for sure."""
    text = error.get("message", "")
    if "singleton tf.Variables" in text or "already built" in text:
        return ("TFL303",) if is_class else ("TFL111",)
    if "has no attribute 'numpy'" in text:
        return ("TFL102",)
    if "as a Python `bool` is not allowed" in text or "OperatorNotAllowedInGraphError" in error.get(
        "type", ""
    ):
        return ("TFL112",)
    return ()


def compare_modes(
    context: ProbeContext,
    results: dict[str, dict[str, Any]],
    traces: dict[str, int | None],
    line: int | None,
    print_lines: list[int],
    *,
    subject: str,
    random_sets: list[str] = (),  # type: ignore[assignment]
    is_class: bool = False,
) -> dict[str, Any]:
    eager, graph = results["eager"], results["graph"]
    mismatches = one_mode = attribute_differences = 0
    random_mismatches = 0
    eager_prints = sum(r["prints"] for r in eager.values())
    graph_prints = sum(r["prints"] for r in graph.values())
    sets: dict[str, Any] = {}
    reported_errors: set[str] = set()
    for name in eager:
        e, g = eager[name], graph.get(name)
        if g is None:
            continue
        for i, (e_err, g_err) in enumerate(zip(e["errors"], g["errors"], strict=False)):
            if (e_err is None) != (g_err is None):
                one_mode += 1
                failing, error = ("graph", g_err) if g_err is not None else ("eager", e_err)
                assert error is not None
                summary = exception_summary(error["message"])
                key = f"{failing}:{error['type']}:{summary}"
                if key in reported_errors:
                    continue
                reported_errors.add(key)
                where = f"{name} input {i + 1}" if name != "fit" else "fit()"
                context.find(
                    f"{where}: raises {error['type']} only in {failing} mode: {summary}",
                    error.get("line") or line,
                    "error",
                    patterns=_code_for_one_mode_error(error, is_class),
                    detail=f"{error['type']}: {error['message']}",
                )
        for i, (e_out, g_out) in enumerate(zip(e["outputs"], g["outputs"], strict=False)):
            if e_out is None or g_out is None:
                continue
            diff = max_difference(e_out, g_out)
            if diff is None or diff > TOLERANCE:
                if name in random_sets:
                    random_mismatches += 1
                    continue
                mismatches += 1
                if mismatches <= 3:
                    context.find(
                        f"{name} input {i + 1}: eager and graph outputs differ "
                        f"({'different shapes' if diff is None else f'max |diff| = {diff:.3g}'}) "
                        "although both started from the same weights, seeds and inputs",
                        line,
                        "error",
                    )
        if e["changes"] != g["changes"]:
            differing = sorted(
                n
                for n in set(e["changes"]) | set(g["changes"])
                if e["changes"].get(n) != g["changes"].get(n)
            )
            attribute_differences += len(differing)
            for n in differing[:3]:
                context.find(
                    f"{name}: {subject} {n!r} changes {_change_text(e['changes'].get(n))} eagerly but "
                    f"{_change_text(g['changes'].get(n))} as a graph (Python code runs only while tracing); "
                    "keep such state in a tf.Variable",
                    line,
                    "error",
                    patterns=("TFL104",) if subject == "attribute" else ("TFL103",),
                )
        sets[name] = {
            "eager": _summary(e),
            "graph": {**_summary(g), "traces": traces.get(name)},
            "random": name in random_sets,
        }
    if random_sets:
        context.find(
            f"the outputs are random by design ({', '.join(random_sets)}: two eager runs with "
            "different seeds differ), so eager and graph outputs were not compared there",
            line,
            "info",
        )
    if eager_prints != graph_prints:
        context.find(
            f"print() wrote {eager_prints} line(s) eagerly but {graph_prints} as a graph: in a graph "
            "Python's print runs only while tracing; use tf.print",
            print_lines[0] if print_lines else line,
            "warning",
            patterns=("TFL101",),
        )
    same = traces.get("same_shape")
    if same is not None and same > 1:
        context.find(
            f"{same} traces for {CALLS} calls with same-shaped tensors: something retraces on every call",
            line,
            "warning",
            patterns=("TFL106",),
        )
    scalars = traces.get("python_scalars")
    if scalars is not None and scalars > 1:
        context.find(
            f"{scalars} traces for {CALLS} different Python numbers: each new Python value is a new "
            "trace; pass tensors (tf.constant) instead",
            line,
            "info",
            patterns=("TFL106",),
        )
    failed = bool(mismatches or one_mode or attribute_differences or eager_prints != graph_prints)
    outcome = "fail" if failed else "pass"
    errors = [err for r in eager.values() for err in r["errors"]]
    if (
        errors
        and all(err is not None for err in errors)
        and all(err is not None for r in graph.values() for err in r["errors"])
    ):
        first = next(err for err in errors if err is not None)
        outcome = "error"
        context.find(
            f"every call failed in both modes ({first['type']}: "
            f"{exception_summary(first['message'])}); give the inputs with --inputs, "
            "--input-shape and --dtype, or '# tflsp: verify(inputs=..., input_shape=...)'",
            line,
            "warning",
            detail=f"{first['type']}: {first['message']}",
        )
    return {
        "outcome": outcome,
        "observations": {
            "outcome": outcome,
            "mismatches": mismatches,
            "one_mode_errors": one_mode,
            "eager_prints": eager_prints,
            "graph_prints": graph_prints,
            "attribute_differences": attribute_differences,
            "traces_same_shape": same,
            "traces_python_scalars": scalars,
            "traces_shapes": traces.get("shapes"),
            "random_outputs": random_mismatches,
        },
        "details": {"sets": sets, "line": line},
    }


def _change_text(change: list[Any] | None) -> str:
    if change is None:
        return "not at all"
    return f"{change[0]!r} -> {change[1]!r}"


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "prints": result["prints"],
        "changes": result["changes"],
        "errors": [
            None if e is None else f"{e['type']}: {exception_summary(e['message'])[:300]}"
            for e in result["errors"]
        ],
    }
