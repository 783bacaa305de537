"""TFL606: keyword arguments that TensorFlow or Keras accept but deprecate or ignore.

This module owns every argument that still runs: ``tf.gather(validate_indices=)``, the
``experimental_*`` spellings of ``tf.function``, and the Keras 3 leftovers of Keras 2
arguments.  Arguments that raise belong to the rule about the failure (``save_format=`` on a
Keras 3 ``save`` is TFL404, ``lr=`` on an optimizer TFL602).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.saving_paths import is_keras_model
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector


def drop_keyword(ctx: BlockContext, call: ast.Call, kw: ast.keyword) -> Edit:
    """Delete ``kw`` with the comma that separates it from its neighbour."""
    items: list[ast.AST] = sorted([*call.args, *call.keywords], key=lambda n: ctx.node_range(n)[:2])
    position = items.index(kw)
    line, col, end_line, end_col = ctx.node_range(kw)
    if position > 0:
        _, _, line, col = ctx.node_range(items[position - 1])
    elif len(items) > 1:
        end_line, end_col = ctx.node_range(items[1])[:2]
    return Edit(line, col, end_line, end_col, "")


@dataclass(frozen=True, slots=True)
class Deprecated:
    """What to say and do about one keyword of one API."""

    variant: str  # message variant in the catalog entry
    new: str | None = None  # safe rename to this keyword
    drop: bool = False  # safe to delete: the argument has no effect
    keras3_only: bool = False  # Keras 2 still honours it (or raises instead)


_TF_FUNCTION = {
    "experimental_relax_shapes": Deprecated("renamed", new="reduce_retracing"),
    "experimental_compile": Deprecated("renamed", new="jit_compile"),
    "experimental_follow_type_hints": Deprecated("follow_type_hints", drop=True),
}
_BY_API: dict[str, dict[str, Deprecated]] = {
    "tensorflow.gather": {"validate_indices": Deprecated("default", drop=True)},
    "tensorflow.function": _TF_FUNCTION,
    "tensorflow.data.Dataset.from_generator": {
        "output_types": Deprecated("output_signature"),
        "output_shapes": Deprecated("output_signature"),
    },
    "keras.layers.Embedding": {
        "input_length": Deprecated("input_length", drop=True, keras3_only=True)
    },
    "keras.layers.LeakyReLU": {
        "alpha": Deprecated("renamed", new="negative_slope", keras3_only=True)
    },
}
_OPTIMIZER_DECAY = Deprecated("decay", keras3_only=True)
_INCLUDE_OPTIMIZER = Deprecated("include_optimizer", keras3_only=True)
_KEYWORDS = frozenset(
    {kw for table in _BY_API.values() for kw in table} | {"decay", "include_optimizer"}
)
_SAVE_FUNCTIONS = frozenset({"keras.saving.save_model", "keras.models.save_model"})


def _table_for(ctx: BlockContext, call: ast.Call) -> tuple[str, dict[str, Deprecated]] | None:
    """The API ``call`` reaches and its deprecated keywords."""
    func = call.func
    name = ctx.resolve(func)
    if name is not None:
        table = _BY_API.get(name)
        if table is not None:
            return name, table
        last = name.rpartition(".")[2]
        text = dotted(func) or ""
        if (
            name.startswith("keras.optimizers.")
            and name.count(".") == 2
            and last[:1].isupper()
            and ".legacy." not in text
        ):
            return name, {"decay": _OPTIMIZER_DECAY}
        if name in _SAVE_FUNCTIONS:
            return name, {"include_optimizer": _INCLUDE_OPTIMIZER}
        return None
    if isinstance(func, ast.Attribute) and func.attr == "save" and is_keras_model(ctx, func.value):
        return "keras.Model.save", {"include_optimizer": _INCLUDE_OPTIMIZER}
    return None


def _saves_to_keras_file(ctx: BlockContext, call: ast.Call, api: str) -> bool:
    """``include_optimizer`` is ignored only by the ``.keras`` writer (``.h5`` honours it)."""
    position = 0 if api == "keras.Model.save" else 1
    path = call.args[position] if len(call.args) > position else None
    if path is None:
        kw = ctx.keyword(call, "filepath")
        path = kw.value if kw is not None else None
    text = ctx.string_end(path) if path is not None else None
    return text is not None and text.endswith(".keras")


@detector("TFL606")
def deprecated_argument(ctx: BlockContext) -> None:
    keras3 = ctx.keras_version == 3
    for call in calls_of(ctx, keywords=_KEYWORDS):  # a cheap filter before resolving names
        found = _table_for(ctx, call)
        if found is None:
            continue
        api, table = found
        reported_signature = False
        for kw in call.keywords:
            entry = table.get(kw.arg or "")
            if entry is None or (entry.keras3_only and not keras3):
                continue
            if entry.variant == "include_optimizer" and not _saves_to_keras_file(ctx, call, api):
                continue
            if entry.variant == "output_signature":
                if reported_signature:
                    continue  # one finding for output_types and output_shapes together
                reported_signature = True
            fix = None
            if entry.new is not None and ctx.keyword(call, entry.new) is None:
                line, col, _, _ = ctx.node_range(kw)
                edit = Edit(line, col, line, col + len(kw.arg or ""), entry.new)
                fix = ctx.fix(edit, safe=True, keyword=kw.arg or "")
            elif entry.drop:
                fix = ctx.fix(_drop(ctx, call, kw), safe=True, keyword=kw.arg or "")
            ctx.report(
                "TFL606",
                kw,
                message=entry.variant,
                args={"keyword": kw.arg, "api": _display(api), "new": entry.new or ""},
                fix=fix,
            )


def _drop(ctx: BlockContext, call: ast.Call, kw: ast.keyword) -> Edit:
    """Remove ``kw``; ``@tf.function(kw=...)`` with nothing else left becomes ``@tf.function``."""
    parent = ctx.index.parent(call)
    alone = len(call.args) + len(call.keywords) == 1
    decorated = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    if alone and isinstance(parent, decorated) and call in parent.decorator_list:
        return ctx.replace(call, ctx.source(call.func))
    return drop_keyword(ctx, call, kw)


def _display(api: str) -> str:
    """Short spelling for messages: ``tf.gather``, ``keras.layers.Embedding``."""
    if api.startswith("tensorflow."):
        return "tf." + api[len("tensorflow.") :]
    return api
