"""Save/load family: a Lambda layer in a model the module saves (TFL408).

Loading a ``Lambda`` layer needs its function: a Python ``lambda`` is refused by default
(safe_mode) and an unregistered function of the module is not found by name on Keras 3 (both
``.keras`` and ``.h5``); tf-keras refuses any Lambda in a ``.keras`` file and reads ``.h5``
bytecode.  A ``Lambda(...)`` call is reported when what it wraps is a lambda or an unregistered
local function (library functions and unknown values: silent), it is not built inside a class
(a subclassed model's ``__init__`` rebuilds its sublayers on load), and the saving flow has a
whole-model save in a format that keeps the Lambda.  A module that turns safe mode off
(``safe_mode=False``, ``enable_unsafe_deserialization()``) is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import detector, module_fact, watch
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import qualname_of
from tflsp.analysis.semantic.saving import REGISTER, SaveSite

LAMBDA = "keras.layers.Lambda"
UNSAFE = "keras.config.enable_unsafe_deserialization"
FACT = "saving.safe_mode_off"
watch(UNSAFE)


def _extract(index: NodeIndex) -> Hashable:
    """Does a call of this block pass ``safe_mode=False``?"""
    for call in index.nodes(ast.Call):
        for k in call.keywords:
            if k.arg == "safe_mode" and not (
                isinstance(k.value, ast.Constant) and k.value.value is True
            ):
                return True
    return None


def _combine(values: Sequence[Hashable], summary: object) -> Hashable:
    return any(x is True for x in values) or None


module_fact(FACT, _extract, _combine)


_LAMBDA = ("Lambda",)


@detector("TFL408")
def lambda_layer_saved(ctx: BlockContext) -> None:
    flow = ctx.summary.saving_flow
    if flow is None or not flow.saves:
        return
    formats = ("keras", "h5", None) if ctx.keras_version == 3 else ("keras",)
    saves = [save for save in flow.saves if save.format in formats]
    if not saves:
        return
    if ctx.summary.extra.get(FACT) is True or ctx.summary.has(UNSAFE):
        return
    for call in calls_of(ctx, _LAMBDA, ctx.summary.imports):  # may_call, for all calls
        if ctx.call_name(call) != LAMBDA:
            continue
        if _in_class(ctx, call):
            continue
        if not _saved_while_bound(ctx, call, saves):
            continue
        wrapped = call.args[0] if call.args else None
        if wrapped is None:
            kw = ctx.keyword(call, "function")
            wrapped = kw.value if kw is not None else None
        if wrapped is None:
            continue
        kind = _wrapped(ctx, wrapped)
        if kind == "lambda":
            ctx.report("TFL408", call)
        elif kind is not None:
            ctx.report("TFL408", call, message="function", args={"function": kind})


def _saved_while_bound(ctx: BlockContext, call: ast.Call, saves: list[SaveSite]) -> bool:
    """In module code, ``model = Sequential([..., Lambda(...)])``: a save must happen before
    the module binds ``model`` again (a notebook often builds the same model twice and saves
    only the second).  Elsewhere any save counts."""
    statement: ast.AST | None = call
    while statement is not None and not isinstance(statement, ast.stmt):
        statement = ctx.index.parent(statement)
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and ctx.index.parent(statement) is ctx.tree
    ):
        return True
    name = statement.targets[0].id
    blocks = ctx.model.blocks
    end = next(
        (
            k
            for k in range(ctx.ordinal + 1, len(blocks))
            if any(bound == name for bound, _, _ in blocks[k].exports)
        ),
        len(blocks),
    )
    return any(s.in_function or ctx.ordinal <= s.order[0] < end for s in saves)


def _in_class(ctx: BlockContext, call: ast.Call) -> bool:
    return any(isinstance(parent, ast.ClassDef) for parent in ctx.index.ancestors(call))


def _wrapped(ctx: BlockContext, node: ast.expr) -> str | None:
    """``lambda`` for a Python lambda, the name of an unregistered local function, else None."""
    values = ctx.value(node)
    if not v.all_of(values, lambda x: x.kind == v.FUNCTION and x.is_local):
        return None
    model = ctx.model
    names: set[str] = set()
    for value in values:
        entry = model.functions.get(value.local_id)
        if entry is None or entry.facts.class_id is not None:
            return None
        if entry.facts.name == "<lambda>":
            names.add("lambda")
            continue
        for decorator in entry.facts.decorators:
            target = decorator.args[0] if decorator.tag == "call" else decorator
            if qualname_of(model.value(target, entry.block)) == REGISTER:
                return None
        names.add(entry.facts.name)
    return "lambda" if names == {"lambda"} else (min(names) if len(names) == 1 else None)
