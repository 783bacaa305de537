"""Graph/eager family (TFL1xx): Python that runs only while TensorFlow traces a graph."""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.registry import detector


@detector("TFL101")
def print_in_graph(ctx: BlockContext) -> None:
    for call in ctx.index.nodes(ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id == "print"):
            continue
        if ctx.resolve(call.func) != "builtins.print" or not ctx.in_graph(call):
            continue
        fix = None
        tf_name = ctx.alias_for("tensorflow")
        if tf_name and not any(kw.arg in ("file", "flush") for kw in call.keywords):
            fix = ctx.fix(ctx.replace(call.func, f"{tf_name}.print"), safe=True)
        ctx.report("TFL101", call, args={"function": ctx.graph_function_name(call)}, fix=fix)


@detector("TFL102")
def numpy_in_graph(ctx: BlockContext) -> None:
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "numpy") or call.args:
            continue
        if ctx.in_graph(call):
            span = ctx.attribute_span(func, end=call)
            ctx.report("TFL102", span, args={"function": ctx.graph_function_name(call)})
