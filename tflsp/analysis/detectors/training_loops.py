"""TFL814 training-flag-in-custom-loop: a model with Dropout or BatchNormalization called inside
a ``GradientTape`` without ``training=True``.

Keras runs such a call in inference mode: dropout never drops and batch normalization uses
(and never updates) its moving statistics.  The model's layers must be visible: a
``Sequential([...])`` list, or ``.add(...)`` calls on the same model, followed through the
semantic model's terms.  A functional model, a subclass or a model from elsewhere: silent.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.fit_calls import layer_calls, module_calls, origins, term_qualname
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

_MODE_LAYERS = {
    "Dropout": "dropout",
    "SpatialDropout1D": "dropout",
    "SpatialDropout2D": "dropout",
    "SpatialDropout3D": "dropout",
    "AlphaDropout": "dropout",
    "GaussianDropout": "dropout",
    "GaussianNoise": "noise",
    "BatchNormalization": "batchnorm",
}
_EFFECTS = {
    "dropout": "dropout never drops",
    "noise": "no noise is added",
    "batchnorm": "batch normalization uses its moving statistics and never updates them",
}


@detector("TFL814")
def training_flag(ctx: BlockContext) -> None:
    for with_node in ctx.index.nodes(ast.With):
        if not any(
            ctx.is_instance_of(item.context_expr, "gradient_tape") for item in with_node.items
        ):
            continue
        for call in _calls_in(with_node.body):
            _check_call(ctx, call)


def _calls_in(body: list[ast.stmt]) -> list[ast.Call]:
    out: list[ast.Call] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _check_call(ctx: BlockContext, call: ast.Call) -> None:
    if len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
        return  # no input, or training given by position
    if call.keywords:
        return  # training=, or a subclass's own switch (``is_training=True``)
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return
    if not ctx.is_instance_of(call.func, "model"):
        return
    kinds = _subclass_layers(ctx.model, ctx.value(call.func))
    if kinds is None:
        found = origins(ctx.model, ctx.semantics.terms.expr(call.func), ctx.ordinal)
        if found is None or len(found) != 1:
            return
        kinds = _mode_layers(ctx.model, *found[0])
    if not kinds:
        return
    names = sorted(kinds)
    effects = sorted({_EFFECTS[_MODE_LAYERS[n]] for n in names})
    model_text = ctx.source(call.func)
    ctx.report(
        "TFL814",
        call,
        args={
            "model": model_text,
            "layers": " and ".join(names),
            "effect": "; ".join(effects),
        },
        fix=ctx.fix(_training_edit(ctx, call), safe=False),
    )


def _subclass_layers(model: ModuleModel, values: v.Values) -> set[str] | None:
    """Mode-dependent layers a model subclass of this module builds in its methods (through its
    local bases too); None when the value is not such a subclass."""
    gids = {x.local_id for x in values if x.kind == v.INSTANCE and x.is_local}
    if len(gids) != 1 or len(values) != 1:
        return None
    found: set[str] = set()
    for gid in model.mro(gids.pop()):
        entry = model.classes.get(gid)
        if entry is None:
            continue
        model.evaluator.touch(entry.block)
        prefix = entry.facts.local_id + "."
        for call in model.blocks[entry.block].calls:
            if call.scope is None or not call.scope.startswith(prefix):
                continue
            if any(key == "training" and t.tag == "const" for key, t in call.kwargs):
                return None  # the class fixes its layers' mode itself
            name = qualname_of(model.value(call.func, entry.block))
            if name is not None and name.startswith("keras.layers."):
                last = name.rpartition(".")[2]
                if last in _MODE_LAYERS:
                    found.add(last)
    return found


def _mode_layers(model: ModuleModel, term: Term, block: int) -> set[str]:
    layers = layer_calls(model, term, block)
    if layers is None:
        return set()
    names = {name.rpartition(".")[2] for name, _, _ in layers}
    # Layers added one by one to the same model, anywhere in the module.
    for k, call in module_calls(model, "add"):
        if len(call.args) != 1 or origins(model, call.func.args[0], k) != [(term, block)]:
            continue
        added = origins(model, call.args[0], k)
        if added is None or len(added) != 1 or added[0][0].tag != "call":
            return set()  # a layer we cannot see: it might set its own training mode
        name = term_qualname(model, added[0][0].args[0], added[0][1])
        if name is None:
            return set()
        names.add(name.rpartition(".")[2])
    return {n for n in names if n in _MODE_LAYERS}


def _training_edit(ctx: BlockContext, call: ast.Call) -> Edit:
    """``, training=True`` right after the last argument (a trailing comma stays valid)."""
    last = max(
        [*call.args, *call.keywords],
        key=lambda n: (getattr(n, "end_lineno", 0), getattr(n, "end_col_offset", 0)),
    )
    _, _, line, col = ctx.node_range(last)
    return ctx.insert_at(line, col, ", training=True")
