"""Gradients family, tape data flow (TFL503-TFL505): what a tape records and what it cannot.

TFL501, TFL502 and TFL506 live in :mod:`tflsp.analysis.detectors.gradients`.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.tape_flow import (
    GradientCall,
    Tape,
    TapeFlow,
    assigned_value,
    bindings_before,
    end_position,
    names_in,
    position,
    tape_flow,
)
from tflsp.analysis.detectors.tape_module import statement_key, top_level_findings
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector, watch

watch(".watch")

# -- TFL503 unwatched-tensor-source -----------------------------------------------------------

TENSOR_FACTORIES = frozenset(
    f"tensorflow.{name}"
    for name in [
        *("constant", "convert_to_tensor", "ones", "zeros", "fill", "range", "linspace", "eye"),
        *("random.normal", "random.uniform", "random.truncated_normal"),
    ]
)


@detector("TFL503")
def unwatched_tensor_source(ctx: BlockContext) -> None:
    flow = tape_flow(ctx)
    for gradient in flow.gradients:
        sources = gradient.sources
        if sources is None:
            continue
        items = sources.elts if isinstance(sources, (ast.List, ast.Tuple)) else [sources]
        for item in items:
            _check_source(ctx, flow, gradient, item)
    if not flow.gradients:
        _module_level_sources(ctx)


def _check_source(
    ctx: BlockContext, flow: TapeFlow, gradient: GradientCall, item: ast.expr
) -> None:
    tape = gradient.tape
    args = {"source": ctx.source(item), "tape": tape.name}
    if isinstance(item, ast.Call):
        if ctx.resolve(item.func) in TENSOR_FACTORIES:
            ctx.report("TFL503", item, message="inline", args=args)
        return
    if not isinstance(item, ast.Name) or flow.watched(tape, item.id, gradient.call):
        return
    stores = bindings_before(ctx, item.id, tape.scope, gradient.call)
    if not stores:
        if not _is_parameter(tape.scope, item.id) and _global_constant(ctx, item):
            ctx.report("TFL503", item, args=args)
        return
    value = assigned_value(ctx, stores[-1])
    if not isinstance(value, ast.Call):
        return
    made_by = ctx.resolve(value.func)
    if made_by in TENSOR_FACTORIES:
        variant = "default"
    elif made_by == "tensorflow.Variable" and tape.flag("watch_accessed_variables", True) is False:
        variant = "unwatched_variable"
    else:
        return
    fix = _watch_fix(ctx, tape, stores[-1], item.id)
    ctx.report("TFL503", item, message=variant, args=args, fix=fix)


def _is_parameter(scope: ast.AST | None, name: str) -> bool:
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    a = scope.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
    return any(p is not None and p.arg == name for p in params)


def _global_constant(ctx: BlockContext, name: ast.Name) -> bool:
    """A module name that surely holds a plain tensor here (not a variable), in a module that
    never calls ``watch``."""
    return not ctx.summary.has(".watch") and ctx.is_instance_of(name, "tensor")


def _module_level_sources(ctx: BlockContext) -> None:
    """``tape.gradient(y, x)`` as its own top-level statement, ``x = tf.constant(...)`` elsewhere."""
    for call in calls_of(ctx, methods=("gradient",)):
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and len(call.args) >= 2
            and ctx.index.enclosing_function(call) is None
        ):
            continue
        sources = call.args[1]
        items = sources.elts if isinstance(sources, (ast.List, ast.Tuple)) else [sources]
        for item in items:
            if isinstance(item, ast.Name) and _global_constant(ctx, item):
                ctx.report("TFL503", item, args={"source": item.id, "tape": func.value.id})


def _watch_fix(ctx: BlockContext, tape: Tape, store: ast.Name, name: str) -> Fix | None:
    """Insert ``tape.watch(name)`` at the start of the with-block, or right after the
    assignment when ``name`` is created inside it."""
    block = tape.block
    body = block.body
    if body[0].lineno == block.lineno:
        return None  # one-line with statement
    statement = ctx.index.parent(store)
    text = f"{tape.name}.watch({name})"
    if position(store) < position(block):
        line = body[0].lineno
        indent = ctx.line_text(line)[: ctx.char_col(line, body[0].col_offset)]
        if indent.strip():
            return None
        return ctx.fix(ctx.insert_at(line, 0, f"{indent}{text}\n"), safe=True, call=text)
    if statement not in body or not isinstance(statement, ast.stmt):
        return None
    index = body.index(statement)
    end_line = statement.end_lineno or statement.lineno
    if index + 1 < len(body) and body[index + 1].lineno == end_line:
        return None  # another statement shares the line
    line = statement.lineno
    indent = ctx.line_text(line)[: ctx.char_col(line, statement.col_offset)]
    if indent.strip():
        return None
    end = len(ctx.line_text(end_line))
    return ctx.fix(ctx.insert_at(end_line, end, f"\n{indent}{text}"), safe=True, call=text)


# -- TFL504 tape-broken-by-numpy --------------------------------------------------------------

_PYTHON_NUMBERS = frozenset({"builtins.float", "builtins.int"})
_NO_GRADIENT_FUNCTIONS = frozenset({"tensorflow.numpy_function", "tensorflow.compat.v1.py_func"})


@detector("TFL504")
def tape_broken_by_numpy(ctx: BlockContext) -> None:
    flow = tape_flow(ctx)
    for tape in flow.tapes:
        targets = {n for g in tape.gradients if g.target is not None for n in names_in(g.target)}
        if not targets:
            continue
        sources = {n for g in tape.gradients if g.sources is not None for n in names_in(g.sources)}
        on_path, recorded = _loss_path(ctx, tape, targets)
        carriers = recorded | sources
        loss = ", ".join(sorted(targets))
        for value in on_path:
            for node in ast.walk(value):
                if isinstance(node, ast.Call):
                    _check_breaker(ctx, node, carriers, loss)


def _loss_path(ctx: BlockContext, tape: Tape, targets: set[str]) -> tuple[list[ast.expr], set[str]]:
    """Values assigned in the tape's block that the loss depends on, and all names it assigns."""
    assignments: list[tuple[set[str], ast.expr]] = []
    for stmt in ast.walk(tape.block):
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            if ctx.index.enclosing_function(stmt) is not tape.scope:
                continue
            targets_of = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            stored = {n.id for t in targets_of for n in ast.walk(t) if isinstance(n, ast.Name)}
            if isinstance(stmt, ast.AugAssign):
                stored_value: ast.expr = ast.BinOp(stmt.target, stmt.op, stmt.value)
            else:
                stored_value = stmt.value
            assignments.append((stored, stored_value))
    assignments.sort(key=lambda item: position(item[1]), reverse=True)
    needed = set(targets)
    on_path: list[ast.expr] = []
    for stored, value in assignments:
        if stored & needed:
            on_path.append(value)
            needed |= set(names_in(value))
    recorded = {name for stored, _ in assignments for name in stored}
    return on_path, recorded


_METADATA_ATTRS = frozenset({"shape", "dtype", "ndim", "name", "device"})


def _carries_tape_values(expr: ast.AST, carriers: set[str]) -> bool:
    """Does ``expr`` use a value the tape recorded (a name assigned under it, a source, or a
    call result)?  Shapes, dtypes and ``len()`` are metadata, not recorded values."""
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Attribute) and node.attr in _METADATA_ATTRS:
            continue
        if isinstance(node, ast.Name) and node.id in carriers:
            return True
        if isinstance(node, ast.Call) and node is not expr:
            if isinstance(node.func, ast.Name) and node.func.id == "len":
                continue
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _check_breaker(ctx: BlockContext, call: ast.Call, carriers: set[str], loss: str) -> None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "numpy" and not call.args:
        if ctx.in_graph(call):
            return  # TFL102: it raises there before any gradient is taken
        if _carries_tape_values(func.value, carriers):
            span = ctx.attribute_span(func, end=call)
            ctx.report("TFL504", span, args={"call": ".numpy()", "loss": loss})
        return
    if not _may_break(ctx, func):
        return  # cheap filter before resolving names
    name = ctx.resolve(func)
    if name is None:
        return
    inputs = [*call.args, *(kw.value for kw in call.keywords)]
    if name in _NO_GRADIENT_FUNCTIONS:
        ctx.report(
            "TFL504", call, message="numpy_function", args={"call": ctx.source(func), "loss": loss}
        )
    elif (name.startswith("numpy.") or name in _PYTHON_NUMBERS) and any(
        _carries_tape_values(a, carriers) for a in inputs
    ):
        ctx.report("TFL504", call, args={"call": ctx.source(func) + "()", "loss": loss})


def _may_break(ctx: BlockContext, func: ast.expr) -> bool:
    """Could ``func`` be NumPy, float/int or tf.numpy_function?  Decided from the text."""
    if isinstance(func, ast.Attribute):
        if func.attr in ("numpy_function", "py_func"):
            return True
        root: ast.expr = func
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and _numpy_binding(ctx, root.id)
    if isinstance(func, ast.Name):
        return func.id in ("float", "int") or _numpy_binding(ctx, func.id)
    return False


def _numpy_binding(ctx: BlockContext, name: str) -> bool:
    target = ctx.summary.imports.get(name, "")
    return target == "numpy" or target.startswith("numpy.") or name in ("np", "numpy")


# -- TFL505 loss-outside-tape -----------------------------------------------------------------

_COMPUTED = (ast.Call, ast.BinOp, ast.UnaryOp)


@detector("TFL505")
def loss_outside_tape(ctx: BlockContext) -> None:
    flow = tape_flow(ctx)
    for gradient in flow.gradients:
        tape, target = gradient.tape, gradient.target
        if target is None or flow.inside(gradient.call, tape.block):
            continue
        block_end = end_position(tape.block)
        if isinstance(target, _COMPUTED):
            ctx.report(
                "TFL505",
                target,
                message="inline",
                args={"loss": ctx.source(target), "tape": tape.name},
            )
            continue
        if not isinstance(target, ast.Name):
            continue
        stores = bindings_before(ctx, target.id, tape.scope, gradient.call)
        if not stores or position(stores[-1]) < block_end:
            continue
        store = stores[-1]
        statement = _statement_of(ctx, store)
        value = getattr(statement, "value", None)
        if not isinstance(value, _COMPUTED) or _recorded_again(ctx, flow, tape, store):
            continue
        args = {"loss": target.id, "tape": tape.name}
        ctx.report("TFL505", statement or store, args=args)
    _top_level_loss_outside(ctx)


def _top_level_loss_outside(ctx: BlockContext) -> None:
    """The loss assigned in its own top-level statement after the tape's with-block."""
    outside = {
        key: (tape, loss) for key, tape, loss in top_level_findings(ctx.summary).loss_outside
    }
    if not outside:
        return
    for stmt in ctx.tree.body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            found = outside.get(statement_key(stmt))
            if found is not None:
                ctx.report("TFL505", stmt, args={"loss": found[1], "tape": found[0]})


def _statement_of(ctx: BlockContext, node: ast.AST) -> ast.stmt | None:
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, ast.stmt):
            return parent
    return None


def _recorded_again(ctx: BlockContext, flow: TapeFlow, tape: Tape, node: ast.AST) -> bool:
    """``node`` runs inside a later ``with tape:`` block of the same (persistent) tape."""
    return any(
        other.name == tape.name and other is not tape and flow.inside(node, other.block)
        for other in flow.tapes
    ) or any(
        isinstance(p, (ast.With, ast.AsyncWith))
        and any(
            isinstance(i.context_expr, ast.Name) and i.context_expr.id == tape.name for i in p.items
        )
        for p in ctx.index.ancestors(node)
    )
