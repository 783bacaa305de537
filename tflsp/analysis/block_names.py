"""The callee names and attribute chains of one block, gathered once for all its detectors.

Most detectors care about a handful of callee names (``print(...)``, ``x.numpy()``,
``tf.Variable(...)``) or about the attribute chains that start from a name (``tf.compat.v1
.Session``).  Each of them used to walk every call or attribute of the block to find those:
with some sixty detectors, these walks cost more than the few calls they keep.  The tables
here are built on first use by one pass and kept in the block context's memo, so they live
exactly as long as one check of the block (the engine clears the memo).

Everything here is syntax: which calls *spell* a name.  Whether the name means what a
detector looks for is still the detector's question (``ctx.resolve``): a table only narrows
the nodes it asks about to those that could match, in the order the index gives them.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tflsp.analysis.context import BlockContext

# Positions in ``index.nodes(ast.Call)`` per name: called as a method (``x.m(...)``), called
# as a plain name (``f(...)``), passed as a keyword (``f(lr=1)``).
_CallTable = tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]

_SMALL = 8  # fewer nodes than this are filtered directly, without a table
_CALLS = "block_names.calls"
_CHAINS = "block_names.chains"
_ATTRIBUTES = "block_names.attributes"
_STORES = "block_names.stores"


def _call_table(ctx: BlockContext, calls: list[ast.Call]) -> _CallTable:
    found: _CallTable | None = ctx.memo.get(_CALLS)
    if found is not None:
        return found
    by_attr: dict[str, list[int]] = {}
    by_name: dict[str, list[int]] = {}
    by_keyword: dict[str, list[int]] = {}
    for i, call in enumerate(calls):
        func = call.func
        if isinstance(func, ast.Attribute):
            by_attr.setdefault(func.attr, []).append(i)
        elif isinstance(func, ast.Name):
            by_name.setdefault(func.id, []).append(i)
        for kw in call.keywords:
            if kw.arg is not None:
                positions = by_keyword.setdefault(kw.arg, [])
                if not positions or positions[-1] != i:
                    positions.append(i)
    found = ctx.memo[_CALLS] = (by_attr, by_name, by_keyword)
    return found


def _lookup(table: dict[str, list[int]], names: Collection[str], hits: list[list[int]]) -> None:
    if len(names) > len(table):  # look up the shorter side
        hits.extend(found for name, found in table.items() if name in names)
    else:
        hits.extend(found for name in names if (found := table.get(name)) is not None)


def calls_of(
    ctx: BlockContext,
    methods: Collection[str] = (),
    functions: Collection[str] = (),
    keywords: Collection[str] = (),
) -> list[ast.Call]:
    """The block's calls ``x.m(...)`` with ``m`` in ``methods``, ``f(...)`` with ``f`` in
    ``functions`` and the calls passing a keyword of ``keywords``, each once, in source order
    (the order of ``index.nodes(ast.Call)``).  Pass collections of names, never one string."""
    calls = ctx.index.nodes(ast.Call)
    if len(calls) < _SMALL:
        # Fewer calls than it takes to pay for a table (most blocks are a statement or two):
        # the filter each detector used to write, written once.
        if not calls:
            return calls
        out = []
        for call in calls:
            func = call.func
            if isinstance(func, ast.Attribute):
                if func.attr in methods:
                    out.append(call)
                    continue
            elif isinstance(func, ast.Name) and func.id in functions:
                out.append(call)
                continue
            if keywords:
                for kw in call.keywords:
                    if kw.arg in keywords:
                        out.append(call)
                        break
        return out
    by_attr, by_name, by_keyword = _call_table(ctx, calls)
    hits: list[list[int]] = []
    if methods:
        _lookup(by_attr, methods, hits)
    if functions:
        _lookup(by_name, functions, hits)
    if keywords:
        _lookup(by_keyword, keywords, hits)
    if not hits:
        return []
    if len(hits) == 1:
        return [calls[i] for i in hits[0]]
    return [calls[i] for i in sorted({i for found in hits for i in found})]


def keyword_calls(ctx: BlockContext) -> list[ast.Call]:
    """The block's calls that pass at least one named keyword (``f(x, k=1)``, not only
    ``f(**kw)``), in source order."""
    calls = ctx.index.nodes(ast.Call)
    if len(calls) < _SMALL:
        return [
            call
            for call in calls
            if call.keywords and any(kw.arg is not None for kw in call.keywords)
        ]
    by_keyword = _call_table(ctx, calls)[2]
    return [calls[i] for i in sorted({i for found in by_keyword.values() for i in found})]


def name_chains(ctx: BlockContext) -> list[tuple[ast.Attribute, ast.Name]]:
    """Every outermost attribute chain on a name (``tf.compat.v1.Session`` of
    ``tf.compat.v1.Session()``, not its ``tf.compat.v1``) with that name, in the order of
    ``index.nodes(ast.Attribute)``."""
    found: list[tuple[ast.Attribute, ast.Name]] | None = ctx.memo.get(_CHAINS)
    if found is not None:
        return found
    found = []
    parents = ctx.index.parents
    for node in ctx.index.nodes(ast.Attribute):
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            continue  # inside a longer chain
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):
            found.append((node, root))
    ctx.memo[_CHAINS] = found
    return found


def attributes_named(ctx: BlockContext, names: Collection[str]) -> list[ast.Attribute]:
    """The block's attributes ``x.a`` with ``a`` in ``names``, in source order."""
    attributes = ctx.index.nodes(ast.Attribute)
    if len(attributes) < _SMALL:
        return [node for node in attributes if node.attr in names]
    table: dict[str, list[int]] | None = ctx.memo.get(_ATTRIBUTES)
    if table is None:
        table = ctx.memo[_ATTRIBUTES] = {}
        for i, node in enumerate(attributes):
            table.setdefault(node.attr, []).append(i)
    hits: list[list[int]] = []
    _lookup(table, names, hits)
    if not hits:
        return []
    if len(hits) == 1:
        return [attributes[i] for i in hits[0]]
    return [attributes[i] for i in sorted(i for found in hits for i in found)]


def stored_names(ctx: BlockContext) -> dict[str, list[ast.Name]]:
    """The block's stored names (``x`` of ``x = ...``, ``for x in``, ``with ... as x``: a
    ``Name`` in Store context) by identifier, in source order.  "Does this loop or function bind ``x``?"
    is answered by climbing from these few nodes instead of walking the whole body."""
    found: dict[str, list[ast.Name]] | None = ctx.memo.get(_STORES)
    if found is None:
        found = ctx.memo[_STORES] = {}
        for node in ctx.index.nodes(ast.Name):
            if isinstance(node.ctx, ast.Store):
                found.setdefault(node.id, []).append(node)
    return found
