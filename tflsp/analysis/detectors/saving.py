"""Save/load family: custom objects (TFL401) and the module-wide save/load facts.

Custom-object questions need the whole module: a class defined in one block is saved or
loaded in others.  A module fact records every save and ``load_model`` site per block; the
detectors read the combined result.  File names are checked in :mod:`.saving_paths`, and
``get_config`` in :mod:`.saving_config`.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.saving_paths import (
    LOAD_FUNCTION,
    SAVE_FUNCTIONS,
    argument,
    keras_model_receiver,
    path_kind,
)
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector, module_fact, watch
from tflsp.analysis.semantic.saving import NOT_SAVED, ClassSaving
from tflsp.analysis.summary import ModuleSummary

FACT = "tflsp.saving"
REGISTER = "keras.saving.register_keras_serializable"
_SCOPES = frozenset(
    {
        "keras.saving.custom_object_scope",
        "keras.utils.CustomObjectScope",
        "keras.saving.CustomObjectScope",
    }
)
# Calls that serialize a model's config: a module with them cares about get_config.
watch(".get_config", ".to_json", "keras.models.clone_model", "keras.saving.serialize_keras_object")


# -- module fact: saves and loads ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SaveSite:
    callee: str | None  # dotted function (``keras.saving.save_model``); None for ``x.save(...)``
    receiver: str | None
    path: str | None


@dataclass(frozen=True, slots=True)
class LoadSite:
    callee: str
    covers: tuple[str, ...] | None  # class names given as custom objects; None: all (opaque)
    scopes: tuple[tuple[str, tuple[str, ...] | None], ...]  # enclosing ``with`` scopes
    path: str | None


@dataclass(frozen=True, slots=True)
class SavingBlockFacts:
    saves: tuple[SaveSite, ...]
    loads: tuple[LoadSite, ...]
    registries: tuple[str, ...]  # ``get_custom_objects`` callees used to register by hand


@dataclass(frozen=True, slots=True)
class SavingInfo:
    saves: tuple[tuple[str | None, str | None], ...]  # (receiver, path kind) of model saves
    loads: tuple[tuple[tuple[str, ...] | None, str | None], ...]  # (covers, path kind)
    registers_by_hand: bool
    base_names: frozenset[str] = frozenset()  # local classes that other local classes extend


EMPTY_INFO = SavingInfo((), (), False)


def _covers(value: ast.expr | None) -> tuple[str, ...] | None:
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return ()
    if isinstance(value, ast.Dict):
        names: list[str] = []
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None:
                return None  # ``{**objects}``
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names.append(key.value.rpartition(">")[2])
            if isinstance(item, ast.Name):
                names.append(item.id)
        return tuple(names)
    return None


def _extract(index: NodeIndex) -> Hashable:
    return _sites(index, index.nodes(ast.Call))


def _sites(index: NodeIndex, calls: Iterable[ast.Call]) -> SavingBlockFacts | None:
    """The save, load and registration sites among ``calls`` (names still unresolved)."""
    saves: list[SaveSite] = []
    loads: list[LoadSite] = []
    registries: list[str] = []
    for call in calls:
        func = call.func
        text = dotted(func)
        last = text.rpartition(".")[2] if text else ""
        if isinstance(func, ast.Attribute) and func.attr == "save" and (not text or "." in text):
            receiver = dotted(func.value)
            saves.append(SaveSite(None, receiver, path_kind(argument(call, 0, "filepath"), index)))
        elif text and last == "save_model":
            model = argument(call, 0, "model")
            receiver = dotted(model) if model is not None else None
            saves.append(SaveSite(text, receiver, path_kind(argument(call, 1, "filepath"), index)))
        elif text and last == "load_model":
            objects = next((kw.value for kw in call.keywords if kw.arg == "custom_objects"), None)
            if objects is None and len(call.args) > 1:
                objects = call.args[1]
            path = path_kind(argument(call, 0, "filepath"), index)
            loads.append(LoadSite(text, _covers(objects), _scopes(index, call), path))
        elif text and last == "get_custom_objects":
            parent = index.parent(call)
            if isinstance(parent, (ast.Subscript, ast.Attribute)):
                registries.append(text)
    if not (saves or loads or registries):
        return None
    return SavingBlockFacts(tuple(saves), tuple(loads), tuple(registries))


def _scopes(index: NodeIndex, call: ast.Call) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    found: list[tuple[str, tuple[str, ...] | None]] = []
    for parent in index.ancestors(call):
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            for item in parent.items:
                expr = item.context_expr
                if isinstance(expr, ast.Call):
                    text = dotted(expr.func)
                    if text and text.rpartition(".")[2] in (
                        "custom_object_scope",
                        "CustomObjectScope",
                    ):
                        found.append((text, _covers(expr.args[0]) if expr.args else None))
    return tuple(found)


def _resolve(facts: SavingBlockFacts, summary: ModuleSummary) -> SavingInfo:
    """Keep the sites that really are Keras saves and loads, with what each load covers."""
    saves: list[tuple[str | None, str | None]] = []
    loads: list[tuple[tuple[str, ...] | None, str | None]] = []
    for save in facts.saves:
        if save.callee is None:
            if keras_model_receiver(save.receiver, summary) or save.path in ("keras", "h5"):
                saves.append((save.receiver, save.path))
        elif summary.resolve(save.callee) in SAVE_FUNCTIONS:
            saves.append((save.receiver, save.path))
    for load in facts.loads:
        if summary.resolve(load.callee) != LOAD_FUNCTION:
            continue
        covers = load.covers
        for scope, scope_covers in load.scopes:
            if summary.resolve(scope) in _SCOPES and covers is not None:
                covers = None if scope_covers is None else (*covers, *scope_covers)
        loads.append((covers, load.path))
    by_hand = any((summary.resolve(r) or "").startswith("keras.") for r in facts.registries)
    return SavingInfo(tuple(saves), tuple(loads), by_hand)


def _combine(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    resolved = [_resolve(v, summary) for v in values if isinstance(v, SavingBlockFacts)]
    saves = tuple(site for info in resolved for site in info.saves)
    loads = tuple(site for info in resolved for site in info.loads)
    by_hand = any(info.registers_by_hand for info in resolved)
    bases = frozenset(
        base.rpartition(".")[2] for cls in summary.classes.values() for base in cls.bases
    )
    if not (saves or loads or by_hand or bases):
        return EMPTY_INFO
    return SavingInfo(saves, loads, by_hand, bases)


module_fact(FACT, _extract, _combine)


def saving_info(ctx: BlockContext) -> SavingInfo:
    info = ctx.summary.extra.get(FACT)
    return info if isinstance(info, SavingInfo) else EMPTY_INFO


def is_registered(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    for deco in cls.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if ctx.resolve(target) == REGISTER:
            return True
    return False


def is_local_base(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """Another class of this module derives from ``cls`` (an abstract base, usually)."""
    return cls.name in saving_info(ctx).base_names


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
