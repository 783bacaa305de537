"""Graph/eager family (TFL1xx): state that does not behave like Python state.

Python attributes updated while tracing (TFL104), item assignment on immutable tensors (TFL109),
variables replaced by tensors (TFL110) and variables created on every call (TFL111).
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_op_names import only_names_ops
from tflsp.analysis.detectors.graph_support import (
    VARIABLE_FACTORIES,
    attribute_origins,
    holds_variable,
    is_tensor_expr,
    method_self,
    same_target,
    self_attribute,
)
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector

_OPERATORS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
}


def _self_update(stmt: ast.stmt) -> tuple[ast.expr, ast.operator | None] | None:
    """``(target, op)`` for ``x op= v`` and ``x = x op v`` / ``x = v op x`` (op None: other forms)."""
    if isinstance(stmt, ast.AugAssign):
        return stmt.target, stmt.op
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.value, ast.BinOp)
        and _uses_as_operand(stmt.value, stmt.targets[0])
    ):
        return stmt.targets[0], None
    return None


def _uses_as_operand(value: ast.BinOp, target: ast.expr) -> bool:
    """``target`` is an operand of ``value`` or of a binary operation nested in it."""
    stack: list[ast.expr] = [value]
    while stack:
        node = stack.pop()
        if same_target(node, target):
            return True
        if isinstance(node, ast.BinOp):
            stack.extend((node.left, node.right))
    return False


def _is_variable_target(ctx: BlockContext, stmt: ast.stmt, target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return holds_variable(ctx, stmt, target.id)
    owner = method_self(ctx, stmt)
    if owner is None:
        return False
    attr = self_attribute(target, owner[1])
    return attr is not None and attr in attribute_origins(ctx, owner[0]).variables


# -- TFL104: Python attributes updated inside graph code -----------------------------------
@detector("TFL104")
def python_state_in_call(ctx: BlockContext) -> None:
    if not ctx.index.nodes(ast.ClassDef):
        return  # only attributes of ``self`` in methods are looked at
    for stmt in (*ctx.index.nodes(ast.AugAssign), *ctx.index.nodes(ast.Assign)):
        update = _self_update(stmt)
        if update is None:
            continue
        target = update[0]
        owner = method_self(ctx, stmt)
        if owner is None:
            continue
        attr = self_attribute(target, owner[1])
        if attr is None or not ctx.in_graph(stmt):
            continue
        if attr in attribute_origins(ctx, owner[0]).variables:
            continue  # a variable rebound to a tensor: TFL110
        if only_names_ops(ctx, owner[0], attr, _updates_of(owner[0], attr)):
            continue  # a per-trace tag for op names: changing per trace is the point
        ctx.report(
            "TFL104",
            stmt,
            args={"attribute": attr, "function": ctx.graph_function_name(stmt)},
        )


def _updates_of(cls: ast.ClassDef, attr: str) -> set[ast.stmt]:
    """The statements of ``cls`` that bump ``<obj>.attr`` (``x += 1``, ``x = x + 1``)."""
    out: set[ast.stmt] = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.AugAssign, ast.Assign)):
            update = _self_update(node)
            target = update[0] if update is not None else None
            if isinstance(target, ast.Attribute) and target.attr == attr:
                out.add(node)
    return out


# -- TFL110: a variable replaced by a tensor -----------------------------------------------
def _assign_fix(ctx: BlockContext, stmt: ast.stmt, target: ast.expr) -> Fix | None:
    name = ctx.source(target)
    if isinstance(stmt, ast.AugAssign):
        operand = ctx.source(stmt.value)
        if isinstance(stmt.op, ast.Add):
            text = f"{name}.assign_add({operand})"
        elif isinstance(stmt.op, ast.Sub):
            text = f"{name}.assign_sub({operand})"
        else:
            symbol = _OPERATORS.get(type(stmt.op))
            if symbol is None:
                return None
            text = f"{name}.assign({name} {symbol} ({operand}))"
    elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp):
        value = stmt.value
        if isinstance(value.op, ast.Add) and same_target(value.left, target):
            text = f"{name}.assign_add({ctx.source(value.right)})"
        elif isinstance(value.op, ast.Add) and same_target(value.right, target):
            text = f"{name}.assign_add({ctx.source(value.left)})"
        elif isinstance(value.op, ast.Sub) and same_target(value.left, target):
            text = f"{name}.assign_sub({ctx.source(value.right)})"
        else:
            text = f"{name}.assign({ctx.source(value)})"
    else:
        return None
    return ctx.fix(ctx.replace(stmt, text), safe=False, replacement=text)


@detector("TFL110")
def variable_rebinding(ctx: BlockContext) -> None:
    for stmt in (*ctx.index.nodes(ast.AugAssign), *ctx.index.nodes(ast.Assign)):
        update = _self_update(stmt)
        if update is None:
            continue
        target = update[0]
        if not isinstance(target, (ast.Name, ast.Attribute)):
            continue
        if not _is_variable_target(ctx, stmt, target):
            continue
        ctx.report(
            "TFL110",
            stmt,
            message="augmented" if isinstance(stmt, ast.AugAssign) else "default",
            args={"variable": ctx.source(target)},
            fix=_assign_fix(ctx, stmt, target),
        )


# -- TFL109: item assignment on a tensor or a variable -------------------------------------
@detector("TFL109")
def tensor_item_assignment(ctx: BlockContext) -> None:
    statements: list[ast.Assign | ast.AugAssign] = [
        *ctx.index.nodes(ast.Assign),
        *ctx.index.nodes(ast.AugAssign),
    ]
    for stmt in statements:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if not isinstance(target, ast.Subscript):
                continue
            base = target.value
            if isinstance(base, (ast.Name, ast.Attribute)) and _is_variable_target(ctx, stmt, base):
                ctx.report(
                    "TFL109",
                    target,
                    message="variable",
                    args={"name": ctx.source(base)},
                    fix=_slice_assign_fix(ctx, stmt, target),
                )
            elif is_tensor_expr(ctx, base):
                ctx.report("TFL109", target, args={"name": ctx.source(base)})


def _slice_assign_fix(ctx: BlockContext, stmt: ast.stmt, target: ast.Subscript) -> Fix | None:
    """``v[i] = x`` -> ``v[i].assign(x)``: sliced variables support assign()."""
    item = ctx.source(target)
    if isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1:
            return None
        text = f"{item}.assign({ctx.source(stmt.value)})"
    elif isinstance(stmt, ast.AugAssign):
        symbol = _OPERATORS.get(type(stmt.op))
        if symbol is None:
            return None
        text = f"{item}.assign({item} {symbol} ({ctx.source(stmt.value)}))"
    else:
        return None
    return ctx.fix(ctx.replace(stmt, text), safe=False, replacement=text)


# -- TFL111: a variable created on every call of graph code --------------------------------
_GUARD_WORDS = ("built", "init", "creat", "first", "ready")


def _looks_like_guard(test: ast.expr) -> bool:
    """``if self.v is None:``, ``if not hasattr(self, "v"):``, ``if not self.built:``..."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(
            isinstance(c, ast.Constant) and c.value is None for c in node.comparators
        ):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("hasattr", "getattr", "isinstance")
        ):
            return True
        word = (
            node.id
            if isinstance(node, ast.Name)
            else node.attr
            if isinstance(node, ast.Attribute)
            else ""
        ).lower()
        if any(w in word for w in _GUARD_WORDS):
            return True
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)


def _guarded(ctx: BlockContext, node: ast.AST) -> bool:
    child = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if (
            isinstance(parent, (ast.If, ast.IfExp))
            and child is not parent.test
            and _looks_like_guard(parent.test)
        ):
            return True
        child = parent
    return False


_VARIABLE = ("Variable",)


@detector("TFL111")
def variable_created_per_call(ctx: BlockContext) -> None:
    for call in calls_of(ctx, _VARIABLE, _VARIABLE):
        if ctx.resolve(call.func) not in VARIABLE_FACTORIES:
            continue
        info = ctx.graph_info(call)
        if info is None:
            continue
        kind = info.kind
        if kind == "called":
            root = ctx.summary.graph.get(info.origin)
            kind = root.kind if root is not None else ""
        if kind not in ("tf.function", "keras") or _guarded(ctx, call):
            continue
        ctx.report(
            "TFL111",
            call,
            args={"call": ctx.source(call.func), "function": ctx.graph_function_name(call)},
        )
