"""Where a block's GradientTapes are opened, watched and asked for gradients.

Shared by the gradient detectors (TFL502-TFL506) and computed once per block: every detector
of the family asks :func:`tape_flow` for the same object.

A tape is followed inside one function (or one top-level statement): ``with tf.GradientTape()
as tape:`` or ``tape = tf.GradientTape()`` followed by ``with tape:``.  A ``tape.gradient(...)``
call belongs to the latest tape of that name opened before it in the same function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from tflsp.analysis.context import BlockContext

TAPE_CLASSES = frozenset({"tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"})
GRADIENT_METHODS = frozenset({"gradient", "jacobian", "batch_jacobian"})

Position = tuple[int, int]


def position(node: ast.AST) -> Position:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def end_position(node: ast.AST) -> Position:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


@dataclass(eq=False)
class Tape:
    name: str
    block: ast.With | ast.AsyncWith
    call: ast.Call  # the tf.GradientTape(...) call
    scope: ast.AST | None  # enclosing function, None at module level
    gradients: list[GradientCall] = field(default_factory=list)

    def keyword(self, name: str) -> ast.keyword | None:
        return next((kw for kw in self.call.keywords if kw.arg == name), None)

    def flag(self, name: str, default: bool) -> bool | None:
        """A boolean constructor argument: its literal value, or None when it is computed."""
        kw = self.keyword(name)
        if kw is None:
            return default
        value = kw.value
        return (
            value.value if isinstance(value, ast.Constant) and type(value.value) is bool else None
        )


@dataclass(eq=False)
class GradientCall:
    call: ast.Call
    tape: Tape
    method: str

    @property
    def target(self) -> ast.expr | None:
        return _argument(self.call, 0, "target")

    @property
    def sources(self) -> ast.expr | None:
        return _argument(self.call, 1, "sources")


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((kw.value for kw in call.keywords if kw.arg == keyword), None)


class TapeFlow:
    def __init__(self, ctx: BlockContext) -> None:
        self.ctx = ctx
        self.tapes: list[Tape] = []
        self.gradients: list[GradientCall] = []
        self.watches: list[tuple[str, ast.AST | None, ast.Call]] = []
        blocks: list[ast.With | ast.AsyncWith] = [
            *ctx.index.nodes(ast.With),
            *ctx.index.nodes(ast.AsyncWith),
        ]
        if not blocks:
            return
        self._find_tapes(blocks)
        if not self.tapes:
            return
        names = {t.name for t in self.tapes}
        for call in ctx.index.nodes(ast.Call):
            func = call.func
            if not (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in names
            ):
                continue
            scope = ctx.index.enclosing_function(call)
            if func.attr == "watch":
                self.watches.append((func.value.id, scope, call))
            elif func.attr in GRADIENT_METHODS:
                tape = self.tape_at(func.value.id, scope, call)
                if tape is not None:
                    gradient = GradientCall(call, tape, func.attr)
                    tape.gradients.append(gradient)
                    self.gradients.append(gradient)

    def _find_tapes(self, blocks: list[ast.With | ast.AsyncWith]) -> None:
        ctx = self.ctx
        assigned: dict[tuple[int, str], list[tuple[Position, ast.Call]]] = {}
        # Tapes made by an assignment only matter to ``with tape:`` (a name as the context):
        # without one, the block's assignments need not be resolved.
        if any(isinstance(item.context_expr, ast.Name) for block in blocks for item in block.items):
            for assign in ctx.index.nodes(ast.Assign):
                value = assign.value
                if isinstance(value, ast.Call) and self._is_tape_call(value):
                    scope = ctx.index.enclosing_function(assign)
                    for target in assign.targets:
                        if isinstance(target, ast.Name):
                            key = (id(scope), target.id)
                            assigned.setdefault(key, []).append((position(assign), value))
        for block in sorted(blocks, key=position):
            scope = ctx.index.enclosing_function(block)
            for item in block.items:
                expr, var = item.context_expr, item.optional_vars
                if isinstance(expr, ast.Call) and isinstance(var, ast.Name):
                    if self._is_tape_call(expr):
                        self.tapes.append(Tape(var.id, block, expr, scope))
                elif isinstance(expr, ast.Name):
                    earlier = [
                        call
                        for pos, call in assigned.get((id(scope), expr.id), [])
                        if pos < position(block)
                    ]
                    if earlier:
                        self.tapes.append(Tape(expr.id, block, earlier[-1], scope))

    def _is_tape_call(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr != "GradientTape":
                return False  # cheap filter before resolving names
        elif not isinstance(func, ast.Name):
            return False
        return self.ctx.resolve(func) in TAPE_CLASSES

    def tape_at(self, name: str, scope: ast.AST | None, node: ast.AST) -> Tape | None:
        """The tape called ``name`` that is current at ``node`` (latest opened before it)."""
        where = position(node)
        found = None
        for tape in self.tapes:
            if tape.name == name and tape.scope is scope and position(tape.block) <= where:
                found = tape
        return found

    def watched(self, tape: Tape, name: str, before: ast.AST) -> bool:
        """Is there a ``tape.watch(...)`` mentioning ``name`` before ``before``?"""
        for tape_name, scope, call in self.watches:
            if tape_name != tape.name or scope is not tape.scope:
                continue
            if position(call) > position(before):
                continue
            for arg in [*call.args, *(kw.value for kw in call.keywords)]:
                if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(arg)):
                    return True
        return False

    def inside(self, node: ast.AST, container: ast.AST) -> bool:
        return any(parent is container for parent in self.ctx.index.ancestors(node))


def tape_flow(ctx: BlockContext) -> TapeFlow:
    flow: TapeFlow | None = ctx.memo.get("tape_flow")
    if flow is None:
        flow = ctx.memo["tape_flow"] = TapeFlow(ctx)
    return flow


def bindings_before(
    ctx: BlockContext, name: str, scope: ast.AST | None, node: ast.AST
) -> list[ast.Name]:
    """``name`` stored in ``scope`` before ``node``, in source order."""
    where = position(node)
    return [
        n
        for n in ctx.index.nodes(ast.Name)
        if n.id == name
        and isinstance(n.ctx, ast.Store)
        and position(n) < where
        and ctx.index.enclosing_function(n) is scope
    ]


def assigned_value(ctx: BlockContext, target: ast.Name) -> ast.expr | None:
    """The value of ``name = value`` when ``target`` is that plain name (not unpacked)."""
    parent = ctx.index.parent(target)
    if isinstance(parent, ast.Assign) and target in parent.targets:
        return parent.value
    if isinstance(parent, ast.AnnAssign) and parent.target is target:
        return parent.value
    return None


def names_in(expr: ast.AST) -> Iterator[str]:
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            yield node.id


def exclusive(ctx: BlockContext, a: ast.AST, b: ast.AST) -> bool:
    """Can ``a`` and ``b`` never both run in one pass (different branches of one ``if``)?"""
    path_a = {id(p): child for child, p in _edges(ctx, a)}
    for child_b, parent in _edges(ctx, b):
        child_a = path_a.get(id(parent))
        if child_a is None:
            continue
        if isinstance(parent, (ast.If, ast.IfExp)):
            return _branch(parent, child_a) != _branch(parent, child_b)
        if isinstance(parent, ast.Match):
            return child_a is not child_b
        return False
    return False


def _edges(ctx: BlockContext, node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    child = node
    for parent in ctx.index.ancestors(node):
        yield child, parent
        child = parent


def _branch(node: ast.If | ast.IfExp, child: ast.AST) -> str:
    if isinstance(node, ast.If):
        if child in node.body:
            return "body"
        if child in node.orelse:
            return "orelse"
        return "test"
    if child is node.body:
        return "body"
    if child is node.orelse:
        return "orelse"
    return "test"
