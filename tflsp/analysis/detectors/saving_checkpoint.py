"""Save/load family: ModelCheckpoint file names on Keras 3 (TFL407).

Keras 3's ``ModelCheckpoint`` checks its file name in the constructor: whole models need a name
ending in ``.keras`` (``.h5`` is accepted by recent 3.x releases, so it is left alone), weights
(``save_weights_only=True``) one ending in ``.weights.h5``.  Only names whose end the semantic
model knows are checked, and only when ``save_weights_only`` is absent or a known constant.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.saving_paths import argument, path_end, with_suffix_edit
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.saving import CHECKPOINT

# Ends a Keras 2 checkpoint name commonly has, replaced (not kept) by the fix.
_OLD_ENDS = (".weights.hdf5", ".hdf5", ".h5", ".ckpt", ".tf", ".weights", ".keras")


def may_call(ctx: BlockContext, call: ast.Call, names: tuple[str, ...]) -> bool:
    """Can ``call`` be a call of a library function named one of ``names``?  A cheap filter
    before the semantic model resolves it: an attribute with that name, or a plain name the
    module imports (``from keras.callbacks import ModelCheckpoint as MC``).  Evaluating every
    plain call (``print``, ``len``, the module's own functions) on each keystroke costs more
    than all the detectors that ask."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr in names
    return isinstance(func, ast.Name) and func.id in ctx.summary.imports


_CHECKPOINT = ("ModelCheckpoint",)


@detector("TFL407")
def checkpoint_path(ctx: BlockContext) -> None:
    if ctx.keras_version != 3 or not ctx.wants("TFL407"):
        return
    for call in calls_of(ctx, _CHECKPOINT, ctx.summary.imports):  # may_call, for all calls
        if ctx.call_name(call) != CHECKPOINT:
            continue
        weights_only = _weights_only(ctx, call)
        if weights_only is None:
            continue
        path = argument(call, 0, "filepath")
        found = path_end(ctx, path)
        if found is None or path is None:
            continue
        text, literal = found
        if not text or text.startswith("hf://"):
            continue
        if weights_only:
            if text.endswith(".weights.h5"):
                continue
            wanted, message = ".weights.h5", "weights_only"
        else:
            if text.endswith((".keras", ".h5")):
                continue
            wanted, message = ".keras", "default"
        fix = _suffix_fix(ctx, text, literal, wanted)
        # From the constructor to the name: the call's first line is where a reader looks.
        ctx.report("TFL407", call, message=message, args={"path": text}, fix=fix, end=path)


def _weights_only(ctx: BlockContext, call: ast.Call) -> bool | None:
    """``save_weights_only`` (absent: False); None when the code does not show it."""
    keyword = ctx.keyword(call, "save_weights_only")
    if len(call.args) > 4:  # filepath, monitor, verbose, save_best_only, save_weights_only
        node = call.args[4]
    elif keyword is not None:
        node = keyword.value
    else:
        return None if any(k.arg is None for k in call.keywords) else False
    constants = v.constants(ctx.value(node))
    if constants is None or len(constants) != 1:
        return None
    (value,) = constants
    return value if isinstance(value, bool) else None


def _suffix_fix(ctx: BlockContext, text: str, literal: ast.expr | None, wanted: str) -> Fix | None:
    if literal is None or text.endswith(("/", "\\")):
        return None
    old = next((end for end in _OLD_ENDS if text.endswith(end)), "")
    return with_suffix_edit(ctx, literal, old, wanted)
