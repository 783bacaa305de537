"""Python values that only ever become names of ops (``name=``, ``tf.name_scope(...)``).

A counter bumped while tracing changes once per trace, not once per step.  That is the pitfall
of TFL104 when the number is meant to count steps or feeds a computation; it is the intent when
the number only tags the ops of one trace (``name=f"lookup_{n}"``) so that a graph rewrite can
tell calls apart.  Names do not change what a graph computes.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import last_name

_SCOPES = frozenset({"name_scope", "variable_scope"})
# How many local names a tag may pass through before we stop following it.
_MAX_HOPS = 3


def only_names_ops(ctx: BlockContext, cls: ast.ClassDef, attr: str, updates: set[ast.stmt]) -> bool:
    """Is every read of ``<obj>.attr`` in ``cls`` (outside ``updates``, the statements that
    bump it) turned into a string that only names ops?  False when nothing reads it: then
    the reader is elsewhere, and may well count on it."""
    reads = [
        node
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and node.attr == attr
        and isinstance(node.ctx, ast.Load)
        and _statement(ctx, node) not in updates
    ]
    return bool(reads) and all(_names_only(ctx, node, 0) for node in reads)


def _statement(ctx: BlockContext, node: ast.AST) -> ast.AST | None:
    return next((p for p in ctx.index.ancestors(node) if isinstance(p, ast.stmt)), None)


def _names_only(ctx: BlockContext, node: ast.expr, hops: int) -> bool:
    """Does the value of ``node`` reach only op names, through string building and locals?"""
    child: ast.AST = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.FormattedValue, ast.JoinedStr)):
            pass
        elif isinstance(parent, ast.BinOp):
            if not _joins_strings(parent, child):
                return False
        elif isinstance(parent, ast.Tuple):
            grand = ctx.index.parent(parent)
            if not (isinstance(grand, ast.BinOp) and _joins_strings(grand, parent)):
                return False
        elif isinstance(parent, ast.Call):
            if child is parent.func:
                return False
            if _scope_call(parent) and parent.args and child is parent.args[0]:
                return True
            if not _builds_string(ctx, parent):
                return False
        elif isinstance(parent, ast.keyword):
            call = ctx.index.parent(parent)
            if not (isinstance(call, ast.Call) and _builds_string(ctx, call)):
                return parent.arg is not None and parent.arg.endswith("name")
        elif isinstance(parent, ast.Assign):
            return _local_names_only(ctx, parent, hops)
        else:
            return False
        child = parent
    return False


def _joins_strings(op: ast.BinOp, child: ast.AST) -> bool:
    """``"x" + s``, ``s + f"..."`` or ``"x%d" % n``: the result is a string."""
    if isinstance(op.op, ast.Mod):
        return child is op.right and _is_string(op.left)
    if isinstance(op.op, ast.Add):
        other = op.right if child is op.left else op.left
        return _is_string(other)
    return False


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _builds_string(ctx: BlockContext, call: ast.Call) -> bool:
    """``str(x)`` or ``"...".format(x)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "format":
        return _is_string(func.value)
    return isinstance(func, ast.Name) and ctx.resolve(func) == "builtins.str"


def _scope_call(call: ast.Call) -> bool:
    return last_name(call.func) in _SCOPES


def _local_names_only(ctx: BlockContext, assign: ast.Assign, hops: int) -> bool:
    """``tag = <string>``: every read of ``tag`` in the function (closures included) names ops."""
    if hops >= _MAX_HOPS or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return False
    name = assign.targets[0].id
    scope = ctx.index.enclosing_function(assign)
    if scope is None:
        return False
    return all(
        _names_only(ctx, node, hops + 1)
        for node in ast.walk(scope)
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
    )
