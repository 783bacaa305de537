"""TFL607 and TFL610: members of Keras objects that Keras 3 (or TF 2.6) removed.

A member is reported when the receiver is known to be a Keras object whose class, in the API
data of the targeted Keras, lacks it, and the Keras 2 data has it (``keras3_removed``): a
removed ``keras.Model`` member is TFL607, any other (layers, metrics, optimizers) TFL610.
``_GONE_MODEL_METHODS`` adds the model methods TF 2.6 removed before tf-keras 2.21 existed,
which no data can list.  An object of this module's class that defines the member itself is
left alone, and so is an unknown receiver, except for the few model method names no other
common library uses (``_DISTINCTIVE``).
"""

from __future__ import annotations

import ast
from functools import cache

from tflsp.analysis import apidata
from tflsp.analysis.block_names import attributes_named
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.keras3_support import (
    UNKNOWN_RECEIVER,
    Receiver,
    data_class,
    data_spellings,
    guarded,
    receiver,
)
from tflsp.analysis.detectors.migration import assigned
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.terms import Term

# Removed in TF 2.6 (tf-keras 2.21 has none of them either): name -> message variant.
_GONE_MODEL_METHODS = {
    "predict_classes": "predict_classes",
    "predict_proba": "predict_proba",
    "_make_predict_function": "private_function",
    "_make_train_function": "private_function",
    "_make_test_function": "private_function",
}
# The Keras 2 generator methods and what replaces them (tf-keras warns that they will go).
_GENERATOR_METHODS = {
    "fit_generator": "fit",
    "evaluate_generator": "evaluate",
    "predict_generator": "predict",
}
_RENAMES = {**_GENERATOR_METHODS, "predict_proba": "predict"}
# Names no other common library's objects have: reported on a receiver of unknown kind too.
# (scikit-learn estimators have predict_proba.)
_DISTINCTIVE = frozenset({*_GENERATOR_METHODS, *_GONE_MODEL_METHODS}) - {"predict_proba"}
_MODEL_CLASSES = frozenset({"keras.Model", "keras.models.Model", "keras.Sequential"})
# Keras 3's keras.optimizers.legacy classes are placeholders that raise at construction: what
# they lack is not the problem.
_LEGACY_OPTIMIZERS = "keras.optimizers.legacy."
# Owned by TFL602 (deprecated API): optimizer.lr.
_OTHER_RULES = frozenset({"keras.optimizers.Optimizer.lr"})
# TFL610 message variants by member.
_SHAPES = {"input_shape": "input", "output_shape": "output"}
_NODE_HELPERS = frozenset(
    {
        "get_input_at",
        "get_output_at",
        "get_input_shape_at",
        "get_output_shape_at",
        "get_input_mask_at",
        "get_output_mask_at",
    }
)
_OPTIMIZER_METHODS = frozenset({"get_updates", "get_gradients", "minimize", "compute_gradients"})


# Keras 3's Functional class (what keras.Model(inputs, outputs) and load_model() return) has
# these, though keras.Model does not; Functional is not public, so the data cannot say it.
_FUNCTIONAL_MEMBERS = frozenset({"input_shape", "output_shape"})
_PLAIN_MODEL = frozenset({"keras.Model", "keras.models.Model"})
_SUPER = Term("global", "super")


def _may_be_functional(ctx: BlockContext, expr: ast.AST) -> bool:
    """An instance of ``keras.Model`` itself, or of a subclass of this module built the
    functional way."""
    return any(
        x.kind == v.INSTANCE
        and (_built_functionally(ctx, x.local_id) if x.is_local else x.ref in _PLAIN_MODEL)
        for x in ctx.value(expr)
    )


def _built_functionally(ctx: BlockContext, class_gid: str) -> bool:
    """An ``__init__`` of the class or of its local bases hands inputs and outputs to
    ``super().__init__``: Keras 3's Model.__init__ then inserts Functional into the bases."""
    model = ctx.model
    for gid in model.mro(class_gid):
        init = model.evaluator.methods(gid).get("__init__")
        entry = model.functions.get(init) if init is not None else None
        if entry is None:
            continue
        for call in model.blocks[entry.block].calls:
            func = call.func
            if (
                call.scope == entry.facts.local_id
                and func.tag == "attr"
                and func.args[1] == "__init__"
                and func.args[0].tag == "call"
                and func.args[0].args[0] == _SUPER
                and _functional_arguments(len(call.args), {k for k, _ in call.kwargs})
            ):
                return True
    return False


def _functional_arguments(positional: int, keywords: set[str | None]) -> bool:
    """Keras 3's test for constructor arguments that make a Functional model."""
    return (
        positional == 2
        or (positional == 1 and "outputs" in keywords)
        or {"inputs", "outputs"} <= keywords
    )


@cache
def _removed_member_names() -> frozenset[str]:
    """Every member name the data says Keras 3 removed, and the model methods TF 2.6 removed:
    a cheap filter before resolving."""
    removed = (key.rpartition(".")[2] for key in apidata.keras3_removed_members())
    return frozenset(removed) | _GONE_MODEL_METHODS.keys()


@detector("TFL607", "TFL610")
def keras3_removed_members(ctx: BlockContext) -> None:
    for node in attributes_named(ctx, _removed_member_names()):
        _check(ctx, node)


def _check(ctx: BlockContext, node: ast.Attribute) -> None:
    attr = node.attr
    if assigned(ctx, node):
        return
    if attr in _FUNCTIONAL_MEMBERS and _may_be_functional(ctx, node.value):
        return
    if guarded(ctx, node):
        return
    found = receiver(ctx, node.value, attr)
    if found is None or found.defines:
        return
    if found is UNKNOWN_RECEIVER:
        if attr in _DISTINCTIVE and ctx.wants("TFL607"):
            _report_model(ctx, node, attr)
        return
    flavor = "keras3" if ctx.keras_version == 3 else "tf_keras"
    for cls in found.classes:
        spelled = data_class(cls, flavor)
        if spelled is None:
            return  # a class the data does not know: cannot tell
        member = f"{spelled}.{attr}"
        if apidata.exists(member, flavor):
            if flavor == "tf_keras" and attr in _GENERATOR_METHODS and _removed(member):
                _report_model(ctx, node, attr)  # deprecated in tf-keras, gone in Keras 3
            return
        removed = _removed(member)
        if removed is not None:
            owner = removed.rpartition(".")[0]
            if removed in _OTHER_RULES or owner.startswith(_LEGACY_OPTIMIZERS):
                return
            if owner in _MODEL_CLASSES:
                _report_model(ctx, node, attr)
            else:
                _report_member(ctx, node, attr, removed)
            return
        if attr in _GONE_MODEL_METHODS and v.MODEL in found.bases:
            _report_model(ctx, node, attr)
            return


def _removed(member: str) -> str | None:
    """The tf-keras member Keras 3 lacks (its defining class's spelling), if any."""
    for spelling in data_spellings(member):
        found = apidata.keras3_removed(spelling)
        if found is not None and found.member:
            return found.key
    return None


def _report_model(ctx: BlockContext, node: ast.Attribute, attr: str) -> None:
    variant = "default"
    args = {"method": attr, "new": _RENAMES.get(attr, "")}
    if attr in _GENERATOR_METHODS:
        variant = "generator"
    elif attr in _GONE_MODEL_METHODS:
        variant = _GONE_MODEL_METHODS[attr]
    elif attr in ("reset_states", "to_yaml"):
        variant = attr
    fix = None
    new = _RENAMES.get(attr)
    call = ctx.index.parent(node)
    if new is not None and isinstance(call, ast.Call) and call.func is node:
        fix = _rename_fix(ctx, node, call, new)
    ctx.report("TFL607", ctx.attribute_span(node), message=variant, args=args, fix=fix)


def _rename_fix(ctx: BlockContext, node: ast.Attribute, call: ast.Call, new: str) -> Fix | None:
    """``fit_generator(...)`` -> ``fit(...)`` when every keyword is also one of fit's."""
    signature = apidata.signature(f"keras.Model.{new}", "keras3")
    if signature is None:
        return None
    names = signature.names()
    if any(kw.arg is None or kw.arg not in names for kw in call.keywords):
        return None
    _, _, end_line, end_col = ctx.node_range(node)
    edit = Edit(end_line, end_col - len(node.attr), end_line, end_col, new)
    return ctx.fix(edit, safe=True, new=new)


def _report_member(ctx: BlockContext, node: ast.Attribute, attr: str, removed: str) -> None:
    receiver_text = ctx.source(node.value)
    args = {"name": f"{receiver_text}.{attr}", "member": attr, "receiver": receiver_text}
    variant = "default"
    fix = None
    if attr == "add_update":
        variant = "add_update"
    elif attr in _SHAPES:
        variant = "shape"
        args["tensor"] = _SHAPES[attr]
    elif attr in _NODE_HELPERS:
        variant = "node"
    elif attr == "reset_states" and ".metrics." in removed:
        variant = "reset_states"
        args["new"] = "reset_state"
        _, _, end_line, end_col = ctx.node_range(node)
        edit = Edit(end_line, end_col - len(attr), end_line, end_col, "reset_state")
        fix = ctx.fix(edit, safe=True, new="reset_state")
    elif attr in _OPTIMIZER_METHODS and ".optimizers." in removed:
        variant = "optimizer"
    ctx.report("TFL610", ctx.attribute_span(node), message=variant, args=args, fix=fix)


__all__ = ["Receiver", "keras3_removed_members"]
