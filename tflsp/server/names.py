"""What the name under the cursor is: the AST node there and its canonical API names.

The analyzer resolves imports (``tf.function`` -> ``tensorflow.function``).  Hover also needs
methods, whose receiver is a value rather than a module, so this adds a few pragmatic rules:
``self.add_weight`` in a Keras layer is ``keras.Layer.add_weight``, ``ds.shuffle`` on a tf.data
pipeline is ``tensorflow.data.Dataset.shuffle``, and ``tape.gradient`` after
``with tf.GradientTape() as tape`` is ``tensorflow.GradientTape.gradient``.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.engine import BlockView
from tflsp.analysis.summary import ModuleSummary

DATASET = "tensorflow.data.Dataset"
_KIND_BASES = {
    "layer": ("keras.Layer",),
    "model": ("keras.Model", "keras.Layer"),
    "module": ("tensorflow.Module",),
}


def block_context(view: BlockView, summary: ModuleSummary) -> BlockContext | None:
    analysis = view.analysis
    if analysis.parsed.tree is None or analysis.index is None:
        return None
    return BlockContext(analysis.text, analysis.parsed.tree, analysis.index, summary, frozenset())


def node_at(ctx: BlockContext, line: int, column: int) -> ast.expr | None:
    """The smallest name or ``.attribute`` under a block-relative (line, code-point column).

    On ``tf.function`` the cursor on ``function`` gives the attribute, on ``tf`` the name.
    """
    best: ast.expr | None = None
    best_size = None
    for node in ctx.index.nodes(ast.Name):
        if node.lineno != line:
            continue  # cheap test first: column conversion costs more
        start_line, start, end_line, end = ctx.node_range(node)
        if start_line == line == end_line and start <= column <= end:
            size = end - start
            if best_size is None or size < best_size:
                best, best_size = node, size
    for attr in ctx.index.nodes(ast.Attribute):
        if attr.end_lineno is not None and attr.end_lineno != line:
            continue
        _, _, end_line, end = ctx.node_range(attr)
        start = end - len(attr.attr)
        if end_line == line and start <= column <= end:
            size = len(attr.attr)
            if best_size is None or size < best_size:
                best, best_size = attr, size
    return best


def method_at(ctx: BlockContext, line: int, column: int) -> tuple[ast.FunctionDef, str] | None:
    """The name in ``def name(...)`` under the cursor, for a method of a Keras class."""
    for fn in ctx.index.nodes(ast.FunctionDef):
        if fn.lineno != line:
            continue
        start = ctx.line_text(line).find(fn.name, ctx.char_col(line, fn.col_offset))
        if start < 0 or not start <= column <= start + len(fn.name):
            continue
        cls = ctx.method_owner(fn)
        if cls is not None and ctx.keras_kind(cls) is not None:
            return fn, fn.name
    return None


def method_api_names(ctx: BlockContext, fn: ast.FunctionDef) -> list[str]:
    """``train_step`` defined in a Keras model -> ``keras.Model.train_step`` and friends."""
    cls = ctx.method_owner(fn)
    kind = ctx.keras_kind(cls) if cls is not None else None
    return [f"{base}.{fn.name}" for base in _KIND_BASES.get(kind or "", ())]


def api_names(ctx: BlockContext, node: ast.expr) -> list[str]:
    """Canonical names ``node`` may stand for, most specific first."""
    names: list[str] = []
    resolved = ctx.resolve(node)
    if resolved is not None:
        names.append(resolved)
    if isinstance(node, ast.Attribute):
        for owner in _receiver_types(ctx, node.value):
            names.append(f"{owner}.{node.attr}")
            names.extend(f"{base}.{node.attr}" for base in _bases_of(owner))
    return list(dict.fromkeys(names))


def _bases_of(owner: str) -> tuple[str, ...]:
    """Where a class's methods are documented: ``keras.optimizers.Adam`` -> ``Optimizer``."""
    if owner.startswith("keras.optimizers."):
        return ("keras.optimizers.Optimizer",)
    if owner == "keras.Sequential" or owner.startswith("keras.models."):
        return _KIND_BASES["model"]
    if owner.startswith("keras.layers."):
        return _KIND_BASES["layer"]
    return ()


def _receiver_types(ctx: BlockContext, value: ast.expr) -> list[str]:
    summary = ctx.summary
    if isinstance(value, ast.Name) and value.id in ("self", "cls"):
        cls = ctx.index.enclosing_class(value)
        if cls is not None:
            return list(_KIND_BASES.get(ctx.keras_kind(cls) or "", ()))
        return []
    if ctx.is_dataset(value):
        return [DATASET]
    owners: list[str] = []
    if isinstance(value, ast.Call):
        callee = ctx.resolve(value.func)
        if callee is not None:
            owners.append(callee)
    if isinstance(value, ast.Name):
        for held in sorted(summary.assigned.get(value.id, frozenset())):
            if held.startswith("local:"):
                owners.extend(_KIND_BASES.get(summary.class_kind(held[6:]) or "", ()))
            else:
                owners.append(held)
        owners.extend(_with_targets(ctx, value.id))
    return owners


def _with_targets(ctx: BlockContext, name: str) -> list[str]:
    """``with tf.GradientTape() as tape`` in this block: what ``tape`` was entered from."""
    out = []
    for item in ctx.index.nodes(ast.withitem):
        target = item.optional_vars
        if isinstance(target, ast.Name) and target.id == name:
            expr = item.context_expr
            callee = ctx.resolve(expr.func if isinstance(expr, ast.Call) else expr)
            if callee is not None:
                out.append(callee)
    return out
