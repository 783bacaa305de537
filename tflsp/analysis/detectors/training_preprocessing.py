"""TFL812 preprocessing-layer-not-adapted: a stateful preprocessing layer built without its
state (mean/variance, vocabulary, bin boundaries) in a file that never adapts or loads any.

Whether a given layer object is adapted later is a question about the whole module (``adapt``
is called on a name, on ``model.layers[0]``, in a helper), so the detector stays silent as soon
as the module calls ``.adapt``, ``.set_vocabulary`` or restores weights anywhere.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.registry import detector, watch
from tflsp.analysis.summary import ModuleSummary

# layer -> (the arguments that give it its state, message id)
_STATEFUL: dict[str, tuple[tuple[str, ...], str]] = {
    "Normalization": (("mean", "variance"), "default"),
    "TextVectorization": (("vocabulary",), "lookup"),
    "StringLookup": (("vocabulary",), "lookup"),
    "IntegerLookup": (("vocabulary",), "lookup"),
    "Discretization": (("bin_boundaries",), "discretization"),
}
_LAYER_PREFIXES = ("keras.layers.", "keras.layers.experimental.preprocessing.")
# Calls that give a layer its state after construction.
_STATE_SETTERS = (
    ".adapt",
    ".set_vocabulary",
    ".load_weights",
    ".set_weights",
    ".load_own_variables",
    ".restore",
)
watch(*_STATE_SETTERS)


def _layer_name(qualname: str | None) -> str | None:
    if qualname is None:
        return None
    for prefix in _LAYER_PREFIXES:
        if qualname.startswith(prefix) and qualname[len(prefix) :] in _STATEFUL:
            return qualname[len(prefix) :]
    return None


def _sets_state(summary: ModuleSummary) -> bool:
    return any(summary.has(setter) for setter in _STATE_SETTERS)


@detector("TFL812")
def preprocessing_not_adapted(ctx: BlockContext) -> None:
    if ctx.summary.derived("training_preprocessing.sets_state", _sets_state):
        return
    for call in calls_of(ctx, _STATEFUL, _STATEFUL):
        func = call.func
        layer = _layer_name(ctx.qualname(func))
        if layer is None:
            continue
        state, message = _STATEFUL[layer]
        # Positional arguments may be the state (``Normalization(-1, mean, variance)``): not
        # ours to guess.  A state argument given as a literal None is no state.
        if call.args or not all(
            isinstance(kw.value, ast.Constant) and kw.value.value is None
            for kw in call.keywords
            if kw.arg is None or kw.arg in state
        ):
            continue
        ctx.report(
            "TFL812",
            call,
            message=message,
            args={"name": _bound_name(ctx, call, layer), "layer": layer},
        )


def _bound_name(ctx: BlockContext, call: ast.Call, layer: str) -> str:
    parent = ctx.index.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return ctx.source(parent.targets[0])
    return f"{layer}()"
