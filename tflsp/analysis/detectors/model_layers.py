"""Model family, output layers read on their own (TFL802) and probabilities handed to the
``tf.nn.*_with_logits`` losses (TFL803).

Both are visible where they are written: a ``Dense(1, activation="softmax")``, a softmax layer
applied to the output of a one-unit layer (in a functional graph or next to it in a
``Sequential`` list), ``logits=`` given the result of ``tf.nn.softmax``/``sigmoid``.
"""

from __future__ import annotations

import ast
import itertools

from tflsp.analysis import model_setup as ms
from tflsp.analysis.context import BlockContext
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic.terms import Term

WITH_LOGITS = {
    "tensorflow.nn.softmax_cross_entropy_with_logits": "softmax",
    "tensorflow.nn.sparse_softmax_cross_entropy_with_logits": "softmax",
    "tensorflow.nn.sigmoid_cross_entropy_with_logits": "sigmoid",
    "tensorflow.nn.weighted_cross_entropy_with_logits": "sigmoid",
    "tensorflow.nn.softmax_cross_entropy_with_logits_v2": "softmax",
    "tensorflow.compat.v1.nn.softmax_cross_entropy_with_logits_v2": "softmax",
}
TF1_DENSE = frozenset({"tensorflow.layers.dense", "tensorflow.compat.v1.layers.dense"})
SQUASHERS = {
    "tensorflow.nn.softmax": "softmax",
    "tensorflow.math.softmax": "softmax",
    "keras.activations.softmax": "softmax",
    "keras.ops.softmax": "softmax",
    "tensorflow.nn.sigmoid": "sigmoid",
    "tensorflow.math.sigmoid": "sigmoid",
    "tensorflow.sigmoid": "sigmoid",
    "keras.activations.sigmoid": "sigmoid",
    "keras.ops.sigmoid": "sigmoid",
}


# The attribute names a call must end in to be looked at (``keras.layers.Dense(...)``); calls
# of plain names are resolved whatever the name (``from keras.layers import Dense as D``).
_ATTRIBUTES = frozenset(
    {"Dense", "Sequential", "add", "Activation", "Softmax", "ReLU", "LeakyReLU"}
    | {name.rpartition(".")[2] for name in WITH_LOGITS}
)


@detector("TFL802", "TFL803")
def check_layers(ctx: BlockContext) -> None:
    softmax, logits = ctx.wants("TFL802"), ctx.wants("TFL803")
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Call):  # ``Activation("softmax")(x)``
            func = func.func
        if isinstance(func, ast.Attribute) and func.attr not in _ATTRIBUTES:
            continue  # a cheap test first: most calls are methods of other things
        if softmax:
            _softmax_on_one_unit(ctx, call)
        if logits:
            _probabilities_as_logits(ctx, call)


def _layer(ctx: BlockContext, node: ast.expr) -> ms.Layer | None:
    if not isinstance(node, ast.Call):
        return None
    return ms.layer_of(ctx.model, ctx.semantics.terms.expr(node), ctx.ordinal)


def _softmax_on_one_unit(ctx: BlockContext, call: ast.Call) -> None:
    name = ctx.call_name(call)
    if name in ms.DENSE:
        layer = _layer(ctx, call)
        if layer is not None and layer.units == 1 and layer.activation == "softmax":
            given = ctx.keyword(call, "activation")
            value = given.value if given is not None else call.args[1]
            fix = None
            if isinstance(value, ast.Constant):
                fix = ctx.fix(ctx.replace(value, '"sigmoid"'), safe=False)
            ctx.report("TFL802", call, fix=fix)
        return
    # ``Softmax()(x)`` / ``Activation("softmax")(x)`` where x comes out of a one-unit Dense.
    if isinstance(call.func, ast.Call) and len(call.args) == 1 and not call.keywords:
        squash = _layer(ctx, call.func)
        if squash is None or squash.kind not in ms.ACTIVATION_LAYERS:
            return
        if squash.activation != "softmax":
            return
        source = ms.resolve(ctx.model, ctx.semantics.terms.expr(call.args[0]), ctx.ordinal, None)
        if source is None or source[0].tag != "call" or source[0].args[0].tag != "call":
            return
        before = ms.layer_of(ctx.model, source[0].args[0], source[1])
        if before is not None and before.units == 1 and before.activation == "linear":
            ctx.report(
                "TFL802", call, message="after_layer", args={"layer": f"Dense({before.units})"}
            )
        return
    if isinstance(call.func, ast.Attribute) and call.func.attr == "add" and len(call.args) == 1:
        _added_softmax(ctx, call)
        return
    if name in ms.SEQUENTIAL and call.args and isinstance(call.args[0], (ast.List, ast.Tuple)):
        items = call.args[0].elts
        for previous, item in itertools.pairwise(items):
            squash = _layer(ctx, item)
            if squash is None or squash.kind not in ms.ACTIVATION_LAYERS:
                continue
            before = _layer(ctx, previous)
            if (
                squash.activation == "softmax"
                and before is not None
                and before.units == 1
                and before.activation == "linear"
            ):
                ctx.report(
                    "TFL802", item, message="after_layer", args={"layer": ctx.source(previous)}
                )


def _added_softmax(ctx: BlockContext, call: ast.Call) -> None:
    """``model.add(Activation("softmax"))`` right after ``model.add(Dense(1))``."""
    squash = _layer(ctx, call.args[0])
    if squash is None or squash.kind not in ms.ACTIVATION_LAYERS or squash.activation != "softmax":
        return
    assert isinstance(call.func, ast.Attribute)
    model = ctx.model
    keys = ms.model_key(
        model,
        ctx.semantics.terms.expr(call.func.value),
        ctx.ordinal,
        ctx.semantics.scope_id_of(call),
    )
    if keys is None:
        return
    memo = ctx.memo.setdefault("model_setup", {})
    layers = ms.layers_of(model, keys[1], ctx.summary, memo)
    for before, layer in itertools.pairwise(layers):
        if layer.term == squash.term and layer.block == squash.block:
            if before.kind in ms.DENSE and before.units == 1 and before.activation == "linear":
                ctx.report(
                    "TFL802", call.args[0], message="after_layer", args={"layer": "Dense(1)"}
                )
            return


def _squash(ctx: BlockContext, term: Term, block: int) -> str | None:
    """The activation a call's result went through last: ``tf.nn.softmax(x)``,
    ``Dense(10, activation="softmax")(x)``, ``tf.layers.dense(x, 10, activation=tf.nn.softmax)``."""
    func = term.args[0]
    if func.tag == "call":  # a layer called on a tensor
        layer = ms.layer_of(ctx.model, func, block)
        return layer.activation if layer is not None and layer.kind in ms.DENSE else None
    name = ms.qualname(ctx.model, func, block) or ""
    if name in TF1_DENSE:
        given = ms.call_argument(term, 2, "activation")
        return ms.activation_name(ctx.model, given, block)
    return SQUASHERS.get(name)


def _probabilities_as_logits(ctx: BlockContext, call: ast.Call) -> None:
    name = ctx.call_name(call)
    if name not in WITH_LOGITS:
        return
    given = ctx.keyword(call, "logits")
    if given is None:
        return
    found = ms.resolve(ctx.model, ctx.semantics.terms.expr(given.value), ctx.ordinal, None)
    if found is None or found[0].tag != "call":
        return
    squash = _squash(ctx, found[0], found[1])
    if squash != WITH_LOGITS[name]:
        return
    ctx.report(
        "TFL803",
        given.value,
        message="nn",
        args={
            "function": f"tf.nn.{name.rpartition('.')[2]}",
            "activation": WITH_LOGITS[name],
            "name": ctx.source(given.value),
        },
    )
