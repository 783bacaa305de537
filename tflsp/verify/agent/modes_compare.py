"""Turning the two modes' records into findings and observations for the ``modes`` probe."""

from __future__ import annotations

from typing import Any

from tflsp.verify.agent.probes import ProbeContext
from tflsp.verify.agent.samples import max_difference

TOLERANCE = 1e-5
CALLS = 3


def compare_modes(
    context: ProbeContext,
    results: dict[str, dict[str, Any]],
    traces: dict[str, int | None],
    line: int | None,
    print_lines: list[int],
    *,
    subject: str,
) -> dict[str, Any]:
    eager, graph = results["eager"], results["graph"]
    mismatches = one_mode = attribute_differences = 0
    eager_prints = sum(r["prints"] for r in eager.values())
    graph_prints = sum(r["prints"] for r in graph.values())
    sets: dict[str, Any] = {}
    for name in eager:
        e, g = eager[name], graph.get(name)
        if g is None:
            continue
        for i, (e_err, g_err) in enumerate(zip(e["errors"], g["errors"], strict=False)):
            if (e_err is None) != (g_err is None):
                one_mode += 1
                failing, error = ("graph", g_err) if g_err is not None else ("eager", e_err)
                assert error is not None
                if one_mode <= 3:
                    context.find(
                        f"{name} input {i + 1}: raises {error['type']} only in {failing} mode: "
                        f"{error['message'].strip().splitlines()[-1] if error['message'].strip() else ''}",
                        error.get("line") or line,
                        "error",
                    )
        for i, (e_out, g_out) in enumerate(zip(e["outputs"], g["outputs"], strict=False)):
            if e_out is None or g_out is None:
                continue
            diff = max_difference(e_out, g_out)
            if diff is None or diff > TOLERANCE:
                mismatches += 1
                if mismatches <= 3:
                    context.find(
                        f"{name} input {i + 1}: eager and graph outputs differ "
                        f"({'different shapes' if diff is None else f'max |diff| = {diff:.3g}'})",
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
                    patterns=("TFL104", "TFL103"),
                )
        sets[name] = {
            "eager": _summary(e),
            "graph": {**_summary(g), "traces": traces.get(name)},
        }
    if eager_prints != graph_prints:
        context.find(
            f"print() wrote {eager_prints} line(s) eagerly but {graph_prints} as a graph: in a graph "
            "Python's print runs only while tracing; use tf.print",
            print_lines[0] if print_lines else line,
            "warning",
            patterns=("TFL101",),
        )
    same = traces.get("same_shape", traces.get("given"))
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
    shapes = traces.get("shapes")
    if shapes is not None and shapes > 1:
        context.find(
            f"{shapes} traces for {CALLS} input shapes: consider input_signature with None dimensions "
            "or reduce_retracing=True",
            line,
            "info",
        )
    failed = bool(mismatches or one_mode or attribute_differences or eager_prints != graph_prints)
    outcome = "fail" if failed else "pass"
    all_failed = all(err is not None for r in eager.values() for err in r["errors"]) and all(
        err is not None for r in graph.values() for err in r["errors"]
    )
    if all_failed and eager:
        outcome = "error"
        first = next(err for r in eager.values() for err in r["errors"] if err is not None)
        context.find(
            f"every call failed in both modes ({first['type']}: {first['message'].strip().splitlines()[-1] if first['message'].strip() else ''}); "
            "give inputs or input_shape with '# tflsp: verify(...)'",
            line,
            "error",
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
            "traces_shapes": shapes,
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
            None if e is None else f"{e['type']}: {e['message'][:300]}" for e in result["errors"]
        ],
    }
