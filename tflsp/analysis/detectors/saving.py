"""Save/load family: custom objects (TFL401).

Whether a class is saved, and whether a Keras load can meet it, is the semantic model's saving
flow (:mod:`tflsp.analysis.semantic.saving`).  File names are checked in :mod:`.saving_paths`,
and ``get_config`` in :mod:`.saving_config`.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic.imports import IMPORTED
from tflsp.analysis.semantic.saving import NOT_SAVED, REGISTER, ClassSaving


def is_registered(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """Decorated with ``register_keras_serializable``, or with a workspace decorator that calls
    it (keras-hub's ``keras_hub_export``)."""
    imported = ctx.model.imported
    for deco in cls.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = ctx.resolve(target)
        if name == REGISTER or (name and imported is not None and imported.registers(name)):
            return True
    return False


def is_local_base(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """Another class of this module derives from ``cls`` (an abstract base, usually)."""
    return ctx.class_id(cls) in ctx.summary.local_bases


def class_name_span(
    ctx: BlockContext, node: ast.ClassDef | ast.FunctionDef
) -> tuple[int, int, int, int]:
    line = node.lineno
    text = ctx.line_text(line)
    start = text.find(node.name, ctx.char_col(line, node.col_offset))
    if start < 0:
        return ctx.node_range(node)
    return line, start, line, start + len(node.name)


# -- TFL401 unregistered-custom-object -------------------------------------------------------
def class_saving(ctx: BlockContext, cls: ast.ClassDef) -> ClassSaving:
    """What saving does to a class of this block (:mod:`tflsp.analysis.semantic.saving`)."""
    found = ctx.summary.saving.get(ctx.class_id(cls))
    return found if isinstance(found, ClassSaving) else NOT_SAVED


def registers_by_hand(ctx: BlockContext) -> bool:
    flow = ctx.summary.saving_flow
    return flow is not None and flow.registers_by_hand


@detector("TFL401")
def unregistered_custom_object(ctx: BlockContext) -> None:
    if registers_by_hand(ctx):
        return
    for cls, kind in ctx.keras_classes():
        if kind not in ("layer", "model") or is_registered(ctx, cls):
            continue
        info = class_saving(ctx, cls)
        if info.loaded:
            variant = "default"  # a Keras load meets a file that holds it
        elif info.saved and not info.covered:
            variant = "save_only"  # loading the file elsewhere needs custom_objects
        else:
            continue
        ctx.report(
            "TFL401",
            class_name_span(ctx, cls),
            message=variant,
            args={"cls": cls.name},
            fix=_register_fix(ctx, cls),
        )
    _imported_classes(ctx)


def _imported_classes(ctx: BlockContext) -> None:
    """Unregistered classes imported from another workspace file (:mod:`tflsp.analysis.
    workspace`), saved or loaded here: reported on the imported name (the class is not ours)."""
    imported = ctx.model.imported
    if imported is None:
        return
    for node in ctx.index.nodes(ast.ImportFrom):
        for alias in node.names:
            if node.level:
                qualname = imported.absolute(node.level, node.module or "", alias.name)
            else:
                qualname = f"{node.module}.{alias.name}" if node.module else None
            if qualname is None:
                continue
            info = ctx.summary.saving.get(IMPORTED + qualname)
            if not isinstance(info, ClassSaving):
                continue
            if info.loaded:
                variant = "default"
            elif info.saved and not info.covered:
                variant = "save_only"
            else:
                continue
            ctx.report("TFL401", alias, message=variant, args={"cls": alias.name})


def _register_fix(ctx: BlockContext, cls: ast.ClassDef) -> Fix | None:
    decorator = _register_spelling(ctx)
    if decorator is None:
        return None
    line = cls.decorator_list[0].lineno if cls.decorator_list else cls.lineno
    text = ctx.line_text(line)
    indent = text[: len(text) - len(text.lstrip())]
    return ctx.fix(ctx.insert_at(line, len(indent), f"@{decorator}()\n{indent}"), safe=False)


def _register_spelling(ctx: BlockContext) -> str | None:
    """``keras.saving.register_keras_serializable`` as this module can spell it.

    ``tf.keras.saving`` is missing on TF 2.21 with Keras 3 (an AttributeError until
    ``tensorflow.keras.saving`` is imported), so tf.keras spellings use ``utils``.
    """
    tf_keras_name = None
    for local, target in ctx.summary.imports.items():
        if target == "keras":
            return f"{local}.saving.register_keras_serializable"
        if target in ("tensorflow.keras", "tf_keras") and tf_keras_name is None:
            tf_keras_name = local
    if tf_keras_name is not None:
        return f"{tf_keras_name}.utils.register_keras_serializable"
    tf_name = ctx.alias_for("tensorflow")
    return f"{tf_name}.keras.utils.register_keras_serializable" if tf_name else None
