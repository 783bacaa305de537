"""TFL115: a tensor grown by concatenation inside a loop (``tf.TensorArray`` is the fix)."""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import is_tensor_expr
from tflsp.analysis.registry import detector

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)

_GROWERS = frozenset(
    {
        "tensorflow.concat",
        "tensorflow.stack",
        "tensorflow.experimental.numpy.append",
        "tensorflow.experimental.numpy.concatenate",
        "tensorflow.experimental.numpy.hstack",
        "tensorflow.experimental.numpy.vstack",
        "keras.ops.append",
        "keras.ops.concatenate",
        "keras.ops.hstack",
        "keras.ops.stack",
        "keras.ops.vstack",
    }
)
_GROWER_NAMES = frozenset(name.rpartition(".")[2] for name in _GROWERS)


def _pieces(call: ast.Call, last: str) -> list[ast.expr]:
    """The tensors being joined: ``[acc, x]`` in ``concat([acc, x], 0)`` or ``append(acc, x)``."""
    if last == "append":
        return [*call.args[:2], *(k.value for k in call.keywords if k.arg in ("x1", "arr"))]
    first = call.args[0] if call.args else None
    if first is None:
        kw = next((k for k in call.keywords if k.arg in ("values", "xs", "tup")), None)
        first = kw.value if kw is not None else None
    if isinstance(first, (ast.List, ast.Tuple)):
        return list(first.elts)
    return []


def _loops_in_function(ctx: BlockContext, node: ast.AST) -> list[ast.AST]:
    """Loops around ``node`` up to its function, innermost first; ``else`` blocks excluded."""
    loops: list[ast.AST] = []
    child = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, _SCOPES):
            break
        if isinstance(parent, _LOOPS) and child in parent.body:
            loops.append(parent)
        child = parent
    return loops


def _graph_loop(ctx: BlockContext, loop: ast.AST) -> bool:
    """A loop AutoGraph turns into a ``tf.while_loop`` (over tf.range, a tensor or a dataset)."""
    if isinstance(loop, ast.While):
        return is_tensor_expr(ctx, loop.test)
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        return is_tensor_expr(ctx, loop.iter) or ctx.is_dataset(loop.iter)
    return False


def _reset_in_loop(ctx: BlockContext, loop: ast.AST, stmt: ast.stmt, name: str) -> bool:
    """Nothing grows across iterations: ``acc = tf.zeros(...)`` earlier in the loop body, or the
    joined tensor handed to a layer or function that replaces it (a decoder's
    ``x = conv(x)``, real-code-findings M6)."""
    for sibling in getattr(loop, "body", ()):
        if sibling is stmt:
            continue
        if not (
            isinstance(sibling, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in sibling.targets)
        ):
            continue
        value = sibling.value
        uses = any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))
        if not uses and sibling.lineno < stmt.lineno:
            return True
        if uses and isinstance(value, ast.Call) and _consumes(ctx, value):
            return True
    return False


def _from_last_iteration(
    ctx: BlockContext,
    use: ast.Name,
    loop: ast.AST,
    stmt: ast.stmt,
    seen: set[ast.AST] | None = None,
) -> bool:
    """May ``use`` read what an earlier iteration of ``loop`` left?  Either a binding in the loop
    at or after ``stmt`` reaches it round the back edge, or an earlier binding in the iteration
    that itself carries the name on (``acc = tf.concat([acc, a])`` then ``acc = tf.concat([acc,
    b])``).  A binding that starts afresh (``part = x[:, i]``) carries nothing.  Unknown flow
    counts as yes."""
    reach = ctx.reaching(use)
    if reach is None:
        return True
    seen = seen if seen is not None else set()
    top = (getattr(loop, "lineno", 0), getattr(loop, "col_offset", 0))
    start = (stmt.lineno, stmt.col_offset)
    end = (getattr(loop, "end_lineno", 0) or 0, getattr(loop, "end_col_offset", 0) or 0)
    for binding in reach.defs:
        where = (getattr(binding, "lineno", 0), getattr(binding, "col_offset", 0))
        if start <= where <= end:
            return True
        if not top < where or binding in seen:
            continue  # bound before the loop
        seen.add(binding)
        owner = ctx.index.parent(binding)
        if isinstance(owner, ast.AugAssign):
            return True
        if not isinstance(owner, ast.Assign):
            continue  # a loop target, a with/except name...: a new value each iteration
        for node in ast.walk(owner.value):
            if (
                isinstance(node, ast.Name)
                and node.id == use.id
                and isinstance(node.ctx, ast.Load)
                and _from_last_iteration(ctx, node, loop, stmt, seen)
            ):
                return True
    return False


def _consumes(ctx: BlockContext, call: ast.Call) -> bool:
    """A call that makes a new tensor of its own size from its input: a layer, a model, a
    function of this module (TensorFlow and NumPy ops keep or grow the size)."""
    name = ctx.qualname(call.func)
    if name is not None:
        return False
    func = call.func
    return not (isinstance(func, ast.Attribute) and ctx.qualname(func.value) is not None)


@detector("TFL115")
def tensor_grown_in_loop(ctx: BlockContext) -> None:
    for stmt in ctx.index.nodes(ast.Assign):
        value = stmt.value
        if not isinstance(value, ast.Call) or len(stmt.targets) != 1:
            continue
        target = stmt.targets[0]
        func = value.func
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if not isinstance(target, ast.Name) or last not in _GROWER_NAMES:
            continue
        pieces = [p for p in _pieces(value, last) if isinstance(p, ast.Name) and p.id == target.id]
        if not pieces:
            continue
        loops = _loops_in_function(ctx, stmt)
        if not loops or _reset_in_loop(ctx, loops[0], stmt, target.id):
            continue
        if not any(_from_last_iteration(ctx, piece, loops[0], stmt) for piece in pieces):
            continue  # bound afresh earlier in the same iteration (real-code-findings M6)
        name = ctx.resolve(func)
        if name not in _GROWERS:
            continue
        in_graph = ctx.in_graph(stmt)
        graph_loop = in_graph and any(_graph_loop(ctx, loop) for loop in loops)
        if in_graph and not graph_loop:
            # A Python loop in traced code is unrolled once, at trace time: it runs over
            # layers (DenseNet's growing features), not over data (real-code-findings M6).
            continue
        ctx.report(
            "TFL115",
            value,
            message="graph_loop" if graph_loop else "default",
            args={"name": target.id, "call": ctx.source(func)},
        )
