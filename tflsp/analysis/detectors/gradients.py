"""Gradients family (TFL501, TFL502, TFL506): calls that raise at once.

Tapes are followed by :mod:`tflsp.analysis.detectors.tape_flow`, one function at a time, and
across top-level statements by :mod:`tflsp.analysis.detectors.tape_module`.  What a tape
records (TFL503-TFL505) is in :mod:`tflsp.analysis.detectors.gradients_flow`.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.tape_flow import (
    GradientCall,
    Tape,
    exclusive,
    tape_flow,
)
from tflsp.analysis.detectors.tape_module import (
    gradient_calls,
    receiver,
    statement_key,
    top_level_findings,
)
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v

# -- TFL501 apply-gradients-order -------------------------------------------------------------

_VARIABLE_ATTRS = frozenset(
    {"trainable_variables", "trainable_weights", "variables", "weights", "trainable_vars"}
)


@detector("TFL501")
def apply_gradients_order(ctx: BlockContext) -> None:
    sources: set[str] | None = None
    for call in calls_of(ctx, methods=("apply_gradients",)):
        pairs = call.args[0] if call.args else ctx.keyword(call, "grads_and_vars")
        if isinstance(pairs, ast.keyword):
            pairs = pairs.value
        if not (
            isinstance(pairs, ast.Call)
            and ctx.resolve(pairs.func) == "builtins.zip"
            and len(pairs.args) == 2
            and not pairs.keywords
        ):
            continue
        first, second = pairs.args
        if sources is None:
            sources = _gradient_sources(ctx)
        if _variables_first(ctx, first, second, sources):
            swap = (
                ctx.replace(first, ctx.source(second)),
                ctx.replace(second, ctx.source(first)),
            )
            ctx.report(
                "TFL501",
                pairs,
                args={"variables": ctx.source(first), "gradients": ctx.source(second)},
                fix=ctx.fix(*swap, safe=True),
            )


def _variables_first(
    ctx: BlockContext, first: ast.expr, second: ast.expr, sources: set[str]
) -> bool:
    return _variable_like(ctx, first, sources) and not _variable_like(ctx, second, sources)


def _gradient_sources(ctx: BlockContext) -> set[str]:
    """Source texts of the block's ``x.gradient(target, sources)`` calls."""
    out = set()
    for call in calls_of(ctx, methods=("gradient",)):
        if len(call.args) >= 2:
            out.add(ctx.source(call.args[1]))
    return out


def _variable_like(ctx: BlockContext, expr: ast.expr, sources: set[str]) -> bool:
    """``model.trainable_variables``, what a tape differentiated against, or a name that holds
    a list of variables (by value: its name says nothing)."""
    if isinstance(expr, ast.Attribute) and expr.attr in _VARIABLE_ATTRS:
        return True
    if ctx.source(expr) in sources:
        return True
    return v.all_of(
        ctx.value(expr),
        lambda x: (
            (x.kind in (v.LIST, v.TUPLE) and x.ref == "variables")
            or x.kind in (v.VARIABLE, v.KERAS_VARIABLE)
        ),
    )


# -- TFL502 tape-gradient-twice ---------------------------------------------------------------


@detector("TFL502")
def tape_gradient_twice(ctx: BlockContext) -> None:
    flow = tape_flow(ctx)
    for tape in flow.tapes:
        if not tape.gradients or tape.flag("persistent", False) is not False:
            continue
        reported = False
        for i, gradient in enumerate(tape.gradients):
            earlier = [
                g
                for g in tape.gradients[:i]
                if not exclusive(ctx, g.call, gradient.call)
                and not _returns_before(ctx, g.call, gradient.call)
            ]
            variant = None
            if earlier:
                variant = "default"
            elif _repeats_in_loop(ctx, tape, gradient):
                variant = "loop"
            if variant is not None:
                fix = None if reported else _persistent_fix(ctx, tape)
                ctx.report(
                    "TFL502",
                    gradient.call,
                    message=variant,
                    args={"tape": tape.name, "method": gradient.method},
                    fix=fix,
                )
                reported = True
    _top_level_gradient_twice(ctx)


def _top_level_gradient_twice(ctx: BlockContext) -> None:
    """A second ``tape.gradient`` in its own top-level statement (script style)."""
    asked_again = top_level_findings(ctx.summary).asked_again
    if not asked_again:
        return
    again = dict(asked_again)
    for stmt in ctx.tree.body:
        tape = again.get(statement_key(stmt)) if not isinstance(stmt, ast.With) else None
        if tape is None:
            continue
        for call in gradient_calls(stmt):
            if receiver(call) == tape:
                method = call.func.attr  # type: ignore[attr-defined]
                ctx.report("TFL502", call, args={"tape": tape, "method": method})
                break


def _returns_before(ctx: BlockContext, node: ast.AST, later: ast.AST) -> bool:
    """``node`` sits in a ``return``/``raise`` that ``later`` is not part of: once it ran,
    ``later`` cannot run in the same pass."""
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.Return, ast.Raise)):
            return not any(p is parent for p in ctx.index.ancestors(later))
        if isinstance(parent, ast.stmt):
            return False
    return False


def _repeats_in_loop(ctx: BlockContext, tape: Tape, gradient: GradientCall) -> bool:
    """The call sits in a loop that does not also re-open the tape."""
    loop = ctx.index.enclosing_loop(gradient.call)
    if loop is None or any(p is loop for p in ctx.index.ancestors(tape.block)):
        return False
    body = getattr(loop, "body", [])
    return not any(isinstance(s, (ast.Break, ast.Return, ast.Raise)) for s in body)


def _persistent_fix(ctx: BlockContext, tape: Tape) -> Fix | None:
    kw = tape.keyword("persistent")
    if kw is not None:
        if isinstance(kw.value, ast.Constant) and kw.value.value is False:
            return ctx.fix(ctx.replace(kw.value, "True"), safe=False)
        return None
    call = tape.call
    last = [*call.args, *call.keywords]
    if last:
        _, _, line, col = ctx.node_range(last[-1])
        edit = ctx.insert_at(line, col, ", persistent=True")
    else:
        _, _, line, col = ctx.node_range(call)
        edit = ctx.insert_at(line, col - 1, "persistent=True")
    return ctx.fix(edit, safe=False)


# -- TFL506 gradient-wrt-model ----------------------------------------------------------------


@detector("TFL506")
def gradient_wrt_model(ctx: BlockContext) -> None:
    for call in calls_of(ctx, methods=("gradient", "jacobian")):
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            continue
        source = call.args[1] if len(call.args) > 1 else None
        if source is None:
            kw = ctx.keyword(call, "sources")
            source = kw.value if kw is not None else None
        if source is None or not _is_keras_object(ctx, source):
            continue
        text = ctx.source(source)
        new = f"{text}.trainable_variables"
        ctx.report(
            "TFL506",
            source,
            args={"model": text, "tape": func.value.id},
            fix=ctx.fix(ctx.replace(source, new), safe=True, new=new),
        )


def _is_keras_object(ctx: BlockContext, expr: ast.expr) -> bool:
    """A Keras layer or model (``self`` in one of their methods included)."""
    return ctx.is_instance_of(expr, "keras_object")
