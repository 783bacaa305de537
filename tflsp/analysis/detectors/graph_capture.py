"""TFL113: graph code reading a Python value that changes after the graph was traced.

Whether a name goes stale depends on where it is bound relative to the calls that trace the
function.  For module names the semantic model answers (:mod:`tflsp.analysis.semantic.captures`:
calls resolved by value, in module order, per definition); for a closure, the enclosing function
is in the same block.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import (
    FUNCTION_TYPES,
    MODULE,
    ScopeNode,
    binding_scope,
    enclosing_scopes,
    is_traced_scope,
    scope_of,
)
from tflsp.analysis.registry import detector

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_NESTED_SCOPES = (*_DEFS, ast.Lambda, *_COMPREHENSIONS)

# Positions order bindings and calls: ``(block number, line)`` across a module (a block's
# facts do not know where the block starts), ``(0, line)`` inside one function.
Position = tuple[int, int]
Span = tuple[int, int]  # first and last line of the outermost loop around a binding


@dataclass(frozen=True, slots=True)
class Binding:
    """One place that binds a name: where, inside which loop, and whether a function writes
    it (``global``/``nonlocal``), which can happen at any time."""

    line: int
    loop: Span | None = None
    by_function: bool = False


def goes_stale(
    bindings: Sequence[tuple[int, Binding]], traces: Sequence[Position], escapes: bool = True
) -> bool:
    """Is a name bound again after graph code may have been traced with its old value?

    ``bindings`` are ``(block number, binding)``; ``traces`` the positions of the calls that
    can trace the graph code.  A binding counts when it follows the first such call and either
    another call follows it or the function ``escapes`` (is handed out, so that it may be called
    again later), when it sits in a loop that also makes such a call, or when it comes from a
    function.  The name must be bound more than once (a loop binds it once per iteration).
    """
    count = sum(2 if b.loop else 1 for _, b in bindings)
    if count < 2:
        return False
    first = min(traces) if traces else None
    last = max(traces) if traces else None
    for block, binding in bindings:
        if binding.by_function:
            return True
        if first is None or last is None:
            continue
        if (block, binding.line) > first and (escapes or (block, binding.line) < last):
            return True
        loop = binding.loop
        if loop is not None and any(t[0] == block and loop[0] <= t[1] <= loop[1] for t in traces):
            return True
    return False


def _stored_names(target: ast.AST) -> Iterator[ast.Name]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node


def _span(loop: ast.AST) -> Span:
    return (getattr(loop, "lineno", 0), getattr(loop, "end_lineno", None) or 0)


# -- TFL113: a Python value frozen into the graph when it is traced -------------------------
def _comprehension_binds(ctx: BlockContext, node: ast.Name) -> bool:
    for scope in ctx.index.ancestors(node):
        if isinstance(scope, _COMPREHENSIONS):
            for gen in scope.generators:
                if any(n.id == node.id for n in _stored_names(gen.target)):
                    return True
        elif isinstance(scope, (*FUNCTION_TYPES, ast.Lambda)):
            return False
    return False


def _top_statement(ctx: BlockContext, node: ast.AST) -> ast.AST | None:
    top: ast.AST | None = None
    for scope in ctx.index.ancestors(node):
        if isinstance(scope, ast.Module):
            return top
        top = scope
    return None


@dataclass
class _Outer:
    """An eager function's own bindings, the lines where it calls names it binds, and the names
    it uses otherwise than by calling them (a function handed out, returned or stored)."""

    bindings: dict[str, list[tuple[int, Binding]]]
    calls: list[tuple[str, int]]
    handed_out: set[str]


def _outer_facts(ctx: BlockContext, fn: ScopeNode, memo: dict[ast.AST, _Outer]) -> _Outer:
    found = memo.get(fn)
    if found is not None:
        return found
    scope = scope_of(ctx, fn)
    table: dict[str, list[tuple[int, Binding]]] = {}
    for name in scope.params:
        table.setdefault(name, []).append((0, Binding(fn.lineno)))
    called: list[tuple[str, int]] = []
    handed_out: set[str] = set()
    callees: set[int] = set()
    stack: list[tuple[ast.AST, Span | None]] = [(c, None) for c in ast.iter_child_nodes(fn)]
    while stack:
        node, loop = stack.pop()
        if isinstance(node, _NESTED_SCOPES):
            if isinstance(node, FUNCTION_TYPES):
                _nonlocal_writes(node, table)
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                table.setdefault(node.id, []).append((0, Binding(node.lineno, loop)))
            elif id(node) not in callees:
                handed_out.add(node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.append((node.func.id, node.lineno))
            callees.add(id(node.func))
        inner = loop or (_span(node) if isinstance(node, _LOOPS) else None)
        # Children after the parent: a call's ``func`` is known before the name is visited.
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
    facts = _Outer(table, called, handed_out)
    memo[fn] = facts
    return facts


def _callers(
    ctx: BlockContext, outer: ScopeNode, nested: ast.FunctionDef | ast.AsyncFunctionDef
) -> set[str]:
    """Names whose calls trace ``nested``: its own, and names bound to a call made with it
    (``step = tf.function(body)``)."""
    names = {nested.name}
    for name, values in scope_of(ctx, outer).values.items():
        if any(
            isinstance(value, ast.Call)
            and any(
                isinstance(n, ast.Name) and n.id == nested.name
                for argument in (*value.args, *(k.value for k in value.keywords))
                for n in ast.walk(argument)
            )
            for value in values
        ):
            names.add(name)
    return names


def _outside_loop(binding: Binding) -> Binding:
    return Binding(binding.line, None, binding.by_function)


def _nonlocal_writes(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, table: dict[str, list[tuple[int, Binding]]]
) -> None:
    names = {n for node in ast.walk(fn) if isinstance(node, ast.Nonlocal) for n in node.names}
    for node in _stored_names(fn) if names else ():
        if node.id in names:
            table.setdefault(node.id, []).append((0, Binding(node.lineno, None, True)))


def _nested_def(ctx: BlockContext, node: ast.AST, outer: ScopeNode) -> ScopeNode | None:
    """The function or lambda directly inside ``outer`` that holds ``node``."""
    inner: ScopeNode | None = None
    for scope in ctx.index.ancestors(node):
        if scope is outer:
            return inner
        if isinstance(scope, (*FUNCTION_TYPES, ast.Lambda)):
            inner = scope
    return None


def _stale_names(ctx: BlockContext) -> dict[ast.AST, frozenset[str]]:
    """Top-level definitions of the block -> module names that go stale for their graph code."""
    out: dict[ast.AST, frozenset[str]] = {}
    for stmt in ctx.tree.body:
        if isinstance(stmt, ast.ClassDef):
            gid = ctx.class_id(stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            gid = ctx.function_id(stmt)
        else:
            continue
        out[stmt] = ctx.summary.stale_globals.get(gid, frozenset())
    return out


@detector("TFL113")
def python_value_captured_in_graph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # only names read in functions are reported
    tops = _stale_names(ctx)
    global_names: set[str] = set().union(*tops.values()) if tops else set()
    closure_names = _closure_candidates(ctx)
    if not global_names and not closure_names:
        return
    memo: dict[ast.AST, _Outer] = {}
    reported: set[tuple[ast.AST, str]] = set()
    for node in ctx.index.nodes(ast.Name):
        if node.id not in global_names and node.id not in closure_names:
            continue  # cheap filter before any walk up the tree
        if not isinstance(node.ctx, ast.Load):
            continue
        scopes = enclosing_scopes(ctx, node)
        if not scopes or (node.id not in global_names and len(scopes) < 2):
            continue
        if (scopes[0], node.id) in reported or not ctx.in_graph(node):
            continue
        if node.id in scope_of(ctx, scopes[0]).declared_global or _comprehension_binds(ctx, node):
            continue  # writes through ``global`` are TFL103's
        where = binding_scope(ctx, node, node.id)
        if where == MODULE:
            top = _top_statement(ctx, node)
            if top is None or node.id not in tops.get(top, ()):
                continue
            if ctx.resolve(node) is not None:
                continue  # an import or a builtin
            reported.add((scopes[0], node.id))
            args = {"name": node.id, "function": ctx.graph_function_name(node)}
            writer = _graph_writer(ctx, top, node.id)
            if writer is not None:
                ctx.report("TFL113", node, message="leaked", args={**args, "writer": writer})
            else:
                ctx.report("TFL113", node, args=args)
        elif not isinstance(where, str) and where is not scopes[0]:
            _check_closure(ctx, node, where, memo, reported, scopes[0])


def _graph_writer(ctx: BlockContext, top: ast.AST, name: str) -> str | None:
    """Another top-level definition's graph function that writes ``name`` through ``global``
    (what it stores is a tensor of its own graph), by name; None when there is none."""
    own = ctx.class_id(top) if isinstance(top, ast.ClassDef) else ctx.function_id(top)
    for writer in sorted(ctx.model.global_writers.get(name, ())):
        entry = ctx.model.functions.get(writer)
        if writer.split(".", 1)[0] != own and writer in ctx.summary.graph and entry is not None:
            return entry.display
    return None


def _closure_candidates(ctx: BlockContext) -> set[str]:
    """Names bound by eager functions around a nested traced function or lambda."""
    names: set[str] = set()
    inner: list[ScopeNode] = [*ctx.index.functions(), *ctx.index.nodes(ast.Lambda)]
    for fn in inner:
        if ctx.index.enclosing_function(fn) is None or not is_traced_scope(ctx, fn):
            continue
        for outer in enclosing_scopes(ctx, fn):
            if not is_traced_scope(ctx, outer):
                names |= scope_of(ctx, outer).bound
    return names


def _check_closure(
    ctx: BlockContext,
    node: ast.Name,
    outer: ScopeNode,
    memo: dict[ast.AST, _Outer],
    reported: set[tuple[ast.AST, str]],
    inner: ScopeNode,
) -> None:
    if is_traced_scope(ctx, outer):
        return  # the enclosing function is traced too: its names are tensors of the same trace
    nested = _nested_def(ctx, node, outer)
    if nested is None:
        return
    facts = _outer_facts(ctx, outer, memo)
    if isinstance(nested, ast.Lambda):
        traces = [(0, nested.lineno)]  # ``ds.map(lambda ...)`` traces it right there
        escapes = False
    else:
        callers = _callers(ctx, outer, nested)
        traces = [(0, line) for name, line in facts.calls if name in callers]
        escapes = bool(callers & facts.handed_out)
    # A function defined inside the loop that rebinds the name is a new function (and a new
    # trace) on every iteration: for it, that loop does not repeat the binding.
    bindings = [
        (block, _outside_loop(b) if b.loop and b.loop[0] <= nested.lineno <= b.loop[1] else b)
        for block, b in facts.bindings.get(node.id, [])
    ]
    if not goes_stale(bindings, traces, escapes):
        return
    reported.add((inner, node.id))
    outer_name = outer.name if isinstance(outer, FUNCTION_TYPES) else "lambda"
    ctx.report(
        "TFL113",
        node,
        message="closure",
        args={
            "name": node.id,
            "function": ctx.graph_function_name(node),
            "outer": outer_name,
        },
    )
