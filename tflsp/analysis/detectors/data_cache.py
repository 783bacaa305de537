"""tf.data family: cache() after a reshuffling shuffle() (TFL206).

The dataset flow of :mod:`.data` (module-level statements across blocks, function bodies
replayed) notes a ``cache()`` whose input was shuffled with ``reshuffle_each_iteration`` left
on, unless a later ``shuffle()`` reorders the cached data again.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.data import block_notes, method_span
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.registry import detector


@detector("TFL206")
def cache_after_shuffle(ctx: BlockContext) -> None:
    for note in block_notes(ctx):
        if note.tag != "cache-after-shuffle" or not isinstance(note.node, ast.Call):
            continue
        cache = note.node
        shuffle = note.other if isinstance(note.other, ast.Call) else None
        ctx.report("TFL206", _name_span(ctx, cache), fix=_swap(ctx, shuffle, cache))


def _name_span(ctx: BlockContext, call: ast.Call) -> tuple[int, int, int, int]:
    """From ``cache`` to the end of the call: in a chain split over lines, the line of the
    ``.cache()`` itself, not the end of the call before it."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.end_lineno is None:
        return method_span(ctx, call)
    line = func.end_lineno
    col = ctx.char_col(line, func.end_col_offset or 0) - len(func.attr)
    _, _, end_line, end_col = ctx.node_range(call)
    return (line, col, end_line, end_col)


def _swap(ctx: BlockContext, shuffle: ast.Call | None, cache: ast.Call) -> Fix | None:
    """``x.shuffle(n).cache()`` -> ``x.cache().shuffle(n)`` when one is called on the other."""
    if shuffle is None or not isinstance(cache.func, ast.Attribute):
        return None
    if cache.func.value is not shuffle or not isinstance(shuffle.func, ast.Attribute):
        return None
    shuffle_span = ctx.attribute_span(shuffle.func, end=shuffle)
    cache_span = ctx.attribute_span(cache.func, end=cache)
    shuffle_text = ctx.span_text(*shuffle_span)
    cache_text = ctx.span_text(*cache_span)
    line, col = shuffle_span[:2]
    _, _, end_line, end_col = cache_span
    text = cache_text.strip() + shuffle_text.strip()
    return ctx.fix(Edit(line, col, end_line, end_col, text), safe=False)
