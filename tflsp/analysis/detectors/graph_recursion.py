"""TFL114: a tf.function that re-enters itself while it is traced (directly or through
helpers of the same module).  The module's call graph comes from the summary; the re-entering
calls are a module fact, so an edit to a helper in another block refreshes this block."""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import FUNCTION_TYPES
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.summary import ModuleSummary, _resolve_function

# -- module fact: calls that re-enter a tf.function ---------------------------------------
RECURSION = "graph.recursion"


def _no_block_facts(index: NodeIndex) -> Hashable:
    return None  # the summary's call graph has everything


def _combine_recursion(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """``(caller id, call text, tf.function id)`` for every call that re-enters a tf.function
    from code traced with it (the tf.function itself or a helper it reaches)."""
    functions = summary.functions
    classes = summary.classes
    by_name = {cls.name: cls.id for cls in classes.values()}
    out: set[tuple[str, str, str]] = set()
    for root, info in summary.graph.items():
        if info.kind != "tf.function" or info.origin != root or root not in functions:
            continue
        seen = {root}
        queue = [root]
        while queue:
            current = queue.pop()
            facts = functions.get(current)
            if facts is None:
                continue
            for text in facts.calls:
                target = _resolve_function(
                    text, facts.id, facts.class_id, functions, classes, by_name
                )
                if target == root:
                    out.add((current, text, root))
                elif target is not None and target not in seen:
                    seen.add(target)
                    queue.append(target)
    return frozenset(out)


module_fact(RECURSION, _no_block_facts, _combine_recursion)


@detector("TFL114")
def recursive_tf_function(ctx: BlockContext) -> None:
    fact = ctx.summary.extra.get(RECURSION)
    if not isinstance(fact, frozenset) or not fact:
        return
    table = {(caller, text): target for caller, text, target in fact}
    callers = {caller for caller, _ in table}
    for call in ctx.index.nodes(ast.Call):
        text = dotted(call.func)
        if text is None:
            continue
        for scope in ctx.index.ancestors(call):
            if not isinstance(scope, FUNCTION_TYPES):
                continue
            caller = ctx.index.scope_id(scope)
            target = table.get((caller, text)) if caller in callers else None
            if target is None:
                continue
            short = target.rpartition(".")[2]
            if caller == target:
                ctx.report("TFL114", call, args={"function": short})
            else:
                helper = caller.rpartition(".")[2]
                ctx.report(
                    "TFL114", call, message="mutual", args={"function": short, "helper": helper}
                )
            break
