"""TFL114: a tf.function that re-enters itself while it is traced (directly or through
helpers of the same module).  The semantic model's call graph (calls resolved by value, one
entry per definition) says which functions call back into which tf.function."""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import FUNCTION_TYPES
from tflsp.analysis.registry import detector


@detector("TFL114")
def recursive_tf_function(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # only calls made by functions are reported
    table = ctx.summary.recursion
    # Per function: its id and the tf.functions it re-enters (asked once, not once per call).
    callers: dict[ast.AST, tuple[str, frozenset[str] | None]] = {}
    for call in ctx.index.nodes(ast.Call):
        fn = ctx.index.enclosing_function(call)
        if not isinstance(fn, FUNCTION_TYPES):
            continue
        known = callers.get(fn)
        if known is None:
            caller = ctx.function_id(fn)
            known = callers[fn] = (caller, table.get(caller))
        caller, roots = known
        if not roots:
            continue
        targets = [gid for gid in ctx.functions(call.func) if gid in roots]
        if not targets:
            continue
        target = targets[0]
        short = target.rpartition(".")[2].partition("@")[0]
        if caller == target:
            ctx.report("TFL114", call, args={"function": short})
        else:
            helper = caller.rpartition(".")[2].partition("@")[0]
            ctx.report("TFL114", call, message="mutual", args={"function": short, "helper": helper})
