"""A Keras model's set-up as the code shows it: its layers, its output, its loss and metrics.

Read from the semantic model's terms (expressions with names replaced by what reaches them), so
aliases, helper functions that build the model and names bound in other blocks all resolve:

- :func:`model_key`: which model object an expression holds, as a key that other calls on the
  same object share (``model.add`` in another block, ``fit`` in a function that built it);
- :func:`layers_of`: the layers in order (a ``Sequential([...])`` list and its ``.add()`` calls,
  or the chain of layer calls that ends in a functional model's outputs);
- :func:`output_of`: the last Dense layer, its units and the activation the model ends in;
- :func:`loss_of`, :func:`metric_of`: what ``compile(loss=..., metrics=[...])`` was given;
- :func:`fit_labels`: the label expressions of the ``fit`` calls on a model.

Every answer is None when the code does not show it: a model passed in as a parameter, a list
built in a loop, a subclassed model, a layer whose units are computed.  Detectors stay silent.

Calls on model objects (``add``, ``fit``) are collected once per block as a module fact and
joined in module order; keys are resolved lazily with the evaluator recording what was read.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tflsp.analysis.facts import semantics_of
from tflsp.analysis.fit_calls import argument
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

SITES = "model_setup.sites"
SEQUENTIAL = frozenset({"keras.Sequential", "keras.models.Sequential"})
FUNCTIONAL = frozenset({"keras.Model", "keras.models.Model"})
DENSE = frozenset({"keras.layers.Dense"})
ACTIVATION_LAYERS = {
    "keras.layers.Activation": None,  # its first argument says which
    "keras.layers.Softmax": "softmax",
    "keras.layers.ReLU": "relu",
    "keras.layers.LeakyReLU": "leaky_relu",
}
# Layers that pass their input's values through unchanged at inference (the output range holds).
PASSTHROUGH = frozenset(
    {
        "keras.layers.Dropout",
        "keras.layers.GaussianNoise",
        "keras.layers.GaussianDropout",
        "keras.layers.AlphaDropout",
        "keras.layers.Flatten",
        "keras.layers.Reshape",
    }
)
_ACTIVATION_FUNCTIONS = {
    "softmax": "softmax",
    "sigmoid": "sigmoid",
    "relu": "relu",
    "tanh": "tanh",
    "linear": "linear",
    "elu": "elu",
    "selu": "selu",
    "softplus": "softplus",
    "log_softmax": "log_softmax",
    "leaky_relu": "leaky_relu",
    "swish": "swish",
    "silu": "silu",
    "gelu": "gelu",
    "exponential": "exponential",
}
_ACTIVATION_MODULES = ("keras.activations.", "tensorflow.nn.", "tensorflow.math.", "keras.ops.")
LOSS_NAMES = {
    "mse": "mean_squared_error",
    "mae": "mean_absolute_error",
    "mape": "mean_absolute_percentage_error",
    "msle": "mean_squared_logarithmic_error",
    "huber_loss": "huber",
    "logcosh": "log_cosh",
}
LOSS_CLASSES = {
    "BinaryCrossentropy": "binary_crossentropy",
    "CategoricalCrossentropy": "categorical_crossentropy",
    "SparseCategoricalCrossentropy": "sparse_categorical_crossentropy",
    "MeanSquaredError": "mean_squared_error",
    "MeanAbsoluteError": "mean_absolute_error",
    "MeanAbsolutePercentageError": "mean_absolute_percentage_error",
    "MeanSquaredLogarithmicError": "mean_squared_logarithmic_error",
    "Huber": "huber",
    "LogCosh": "log_cosh",
}
REGRESSION_LOSSES = frozenset(
    {
        "mean_squared_error",
        "mean_absolute_error",
        "mean_absolute_percentage_error",
        "mean_squared_logarithmic_error",
        "huber",
        "log_cosh",
    }
)
_LOSS_MODULES = ("keras.losses.", "keras.metrics.")


# -- calls on model objects, per block ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Site:
    method: str  # add | fit (fit or evaluate: both take labels) | compile
    scope: str | None  # local id of the enclosing function (None: module code)
    receiver: Term
    arg: Term | None  # add: the layer; fit: the labels (``y``); compile: the loss
    data: Term | None  # fit: ``x`` (a dataset carries its labels); compile: the metrics
    maybe: bool = False  # under an ``if``/``try``/loop of its scope: may not run, or run again


_METHODS = frozenset({"add", "fit", "evaluate", "compile"})


def _extract(index: NodeIndex) -> Hashable:
    sem = semantics_of(index)
    terms = sem.terms
    sites: list[Site] = []
    for call in index.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in _METHODS:
            continue
        if func.attr == "add":
            layer = argument(call, "add", "layer")
            arg = terms.expr(layer) if layer is not None else None
            data = None
        elif func.attr == "compile":
            loss = compile_argument(call, "loss")
            metrics = compile_argument(call, "metrics")
            arg = terms.expr(loss) if loss is not None else None
            data = terms.expr(metrics) if metrics is not None else None
        else:
            labels = argument(call, func.attr, "y")
            first = argument(call, func.attr, "x")
            arg = terms.expr(labels) if labels is not None else None
            data = terms.expr(first) if first is not None else None
        method = "fit" if func.attr == "evaluate" else func.attr
        maybe = _conditional(index, call)
        sites.append(Site(method, sem.scope_id_of(call), terms.expr(func.value), arg, data, maybe))
    return tuple(sites)


_BRANCHES = (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


def _conditional(index: NodeIndex, call: ast.Call) -> bool:
    for parent in index.ancestors(call):
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, _BRANCHES) or type(parent).__name__ == "TryStar":
            return True
    return False


def _combine(values: Sequence[Hashable], summary: Any) -> Hashable:
    return tuple(
        (k, site) for k, sites in enumerate(values) if isinstance(sites, tuple) for site in sites
    )


module_fact(SITES, _extract, _combine)


# -- resolving terms ---------------------------------------------------------------------------
Key = tuple[int, "str | None", Term]


def _export(model: ModuleModel, name: str, block: int) -> tuple[int, Term] | None:
    """The term a module name surely holds at the start of ``block`` (None: maybe several)."""
    model.evaluator.touch_name(name)
    last = model.binding_before(name, block)
    if last is None or not last[2]:
        return None
    model.evaluator.touch(last[0])
    return last[0], last[1]


def resolve(
    model: ModuleModel, term: Term, block: int, scope: str | None
) -> tuple[Term, int, str | None] | None:
    """Follow a name read from an earlier block to the term bound there."""
    for _ in range(8):
        if term.tag == "entry":
            found = _export(model, term.args[0], block)
        elif term.tag == "global":
            found = _only_binding(model, term.args[0])
        else:
            return term, block, scope
        if found is None:
            return None
        block, term = found
        scope = None
    return None


def _only_binding(model: ModuleModel, name: str) -> tuple[int, Term] | None:
    """A module name read by a function when it runs: known when the module binds it once."""
    model.evaluator.touch_name(name)
    binding = model.only_binding(name)
    if binding is not None:
        model.evaluator.touch(binding[0])
    return binding


def qualname(model: ModuleModel, term: Term, block: int) -> str | None:
    return qualname_of(model.value(term, block))


def model_key(
    model: ModuleModel, term: Term, block: int, scope: str | None
) -> tuple[Key, Key] | None:
    """Which model object ``term`` holds: the call that made it, where it was made, and (for a
    helper function that builds it) the constructor call inside the helper that its layers
    come from.  Two calls of one helper are two objects with the same layers."""
    key: Key | None = None
    for _ in range(4):
        found = resolve(model, term, block, scope)
        if found is None or found[0].tag != "call":
            return None
        term, block, scope = found
        if key is None:
            key = (block, scope, term)
        func = model.value(term.args[0], block)
        local = [x for x in func if x.kind == v.FUNCTION and x.is_local]
        if local and len(func) == 1:
            # A helper that builds the model: its layers are those of what it returns.
            entry = model.functions.get(local[0].local_id)
            if entry is None or entry.facts.returns is None:
                return None
            model.evaluator.touch(entry.block)
            term, block, scope = entry.facts.returns, entry.block, entry.facts.local_id
            continue
        return key, (block, scope, term)
    return None


def _sites(summary: Any) -> tuple[tuple[int, Site], ...]:
    found = summary.extra.get(SITES)
    return found if isinstance(found, tuple) else ()


def _site_key(
    model: ModuleModel, k: int, site: Site, memo: dict[Any, Any]
) -> tuple[Key, Key] | None:
    id_ = (k, site)
    if id_ not in memo:
        memo[id_] = model_key(model, site.receiver, k, site.scope)
    return memo[id_]


# -- layers ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Layer:
    kind: str  # qualname of the layer class
    units: int | None  # Dense only; None: unknown
    activation: str | None  # "linear" when none is given; None: unknown
    term: Term
    block: int
    maybe: bool = False  # added by a call that may not run (or may run several times)


@dataclass(frozen=True, slots=True)
class Output:
    dense: Layer  # the last layer with units
    activation: str | None  # what the model ends in (a trailing activation layer counts)
    by_layer: Layer | None  # the activation layer after ``dense``, if any


def constant(model: ModuleModel, term: Term | None, block: int) -> object:
    """The constant a term surely holds (None for no term, ``UNKNOWN_SETTING`` when unknown)."""
    if term is None:
        return None
    if term.tag == "const":
        # Read the literal itself: ``const(1)`` and ``const(True)`` are equal terms, so the
        # evaluator's memo may answer one with the other.
        return term.args[0]
    values = model.value(term, block)
    found = v.constants(values)
    if found is None or len(found) != 1:
        return _UNKNOWN
    (value,) = found
    return value


_UNKNOWN = object()


def call_argument(term: Term, position: int, name: str) -> Term | None:
    """An argument of a call term by keyword or position (a keyword-only one: a position
    past the end)."""
    for key, value in term.args[2]:
        if key == name:
            return value
    args = term.args[1]
    if len(args) > position and not any(a.tag == "star" for a in args):
        return args[position]
    return None


def _splats(term: Term) -> bool:
    """``f(*args)`` / ``f(**options)``: an argument not given by name may still be given."""
    return any(key is None for key, _ in term.args[2]) or any(a.tag == "star" for a in term.args[1])


def activation_name(model: ModuleModel, term: Term | None, block: int) -> str | None:
    """``activation=`` of a layer: a string, None (linear) or a library function."""
    if term is None:
        return "linear"
    found = resolve(model, term, block, None)
    if found is None:
        return None
    term, block, _ = found
    if term.tag == "const":
        if term.args[0] is None:
            return "linear"
        if isinstance(term.args[0], str):
            return term.args[0].lower()
        return None
    name = qualname(model, term, block)
    if name is None or not name.startswith(_ACTIVATION_MODULES):
        return None
    return _ACTIVATION_FUNCTIONS.get(name.rpartition(".")[2])


def layer_of(model: ModuleModel, term: Term, block: int) -> Layer | None:
    """The layer a constructor call term makes."""
    found = resolve(model, term, block, None)
    if found is None or found[0].tag != "call":
        return None
    term, block, _ = found
    kind = qualname(model, term.args[0], block) or "?"
    if kind in DENSE:
        units = constant(model, call_argument(term, 0, "units"), block)
        given = call_argument(term, 1, "activation")
        activation = (
            None if given is None and _splats(term) else activation_name(model, given, block)
        )
        known = units if isinstance(units, int) and not isinstance(units, bool) else None
        return Layer(kind, known, activation, term, block)
    if kind in ACTIVATION_LAYERS:
        fixed = ACTIVATION_LAYERS[kind]
        if fixed is None:
            fixed = activation_name(model, call_argument(term, 0, "activation"), block)
            if fixed == "linear" and call_argument(term, 0, "activation") is None:
                fixed = None
        return Layer(kind, None, fixed, term, block)
    return Layer(kind, None, None, term, block)


def layers_of(model: ModuleModel, key: Key, summary: Any, memo: dict[Any, Any]) -> list[Layer]:
    """The layers of a model in order, or [] when the code does not show them all.

    ``key`` is the constructor call (the second half of :func:`model_key`)."""
    block, _, term = key
    kind = qualname(model, term.args[0], block)
    if kind in SEQUENTIAL:
        listed = call_argument(term, 0, "layers")
        items: list[tuple[Term, int, bool]] = []
        if listed is not None:
            found = resolve(model, listed, block, None)
            if found is None or found[0].tag not in ("list", "tuple"):
                return []
            items = [(t, found[1], False) for t in found[0].args[0]]
        for k, site in _sites(summary):
            if site.method == "add" and site.arg is not None:
                found_key = _site_key(model, k, site, memo)
                if found_key is not None and found_key[1] == key:
                    items.append((site.arg, k, site.maybe))
        layers: list[Layer] = []
        for t, k, maybe in items:
            layer = layer_of(model, t, k)
            if layer is None:
                return []
            layers.append(replace(layer, maybe=True) if maybe else layer)
        return layers
    if kind in FUNCTIONAL:
        outputs = call_argument(term, 1, "outputs")
        if outputs is None:
            return []
        chain: list[Layer] = []
        current: tuple[Term, int] | None = (outputs, block)
        while current is not None and len(chain) < 4:
            found = resolve(model, current[0], current[1], None)
            if found is None or found[0].tag != "call" or len(found[0].args[1]) != 1:
                break
            layer = layer_of(model, found[0].args[0], found[1])
            if layer is None:
                break
            chain.insert(0, layer)
            current = (found[0].args[1][0], found[1])
        return chain
    return []


def output_of(layers: Sequence[Layer]) -> Output | None:
    """The last Dense layer and what the model ends in, when nothing unknown follows it."""
    after: Layer | None = None
    for layer in reversed(layers):
        if layer.maybe:
            return None  # ``if binary: model.add(Dense(1, ...))``: which one ends the model?
        if layer.kind in DENSE:
            if after is not None:
                if after.activation is None or layer.activation not in ("linear", None):
                    return None
                return Output(layer, after.activation, after)
            return Output(layer, layer.activation, None)
        if layer.kind in PASSTHROUGH or (
            layer.kind in ACTIVATION_LAYERS and layer.activation == "linear"
        ):
            continue  # ``Activation("linear", dtype="float32")``: the mixed-precision idiom
        if layer.kind in ACTIVATION_LAYERS and after is None:
            after = layer
            continue
        return None
    return None


def model_output(
    model: ModuleModel,
    receiver: Term,
    block: int,
    scope: str | None,
    summary: Any,
    memo: dict[Any, Any],
) -> tuple[Key, Output] | None:
    keys = model_key(model, receiver, block, scope)
    if keys is None:
        return None
    memo_key = ("output", keys[1])
    if memo_key not in memo:
        memo[memo_key] = output_of(layers_of(model, keys[1], summary, memo))
    out = memo[memo_key]
    return (keys[0], out) if out is not None else None


# -- loss and metrics --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Loss:
    name: str  # canonical function name: binary_crossentropy, mean_squared_error, ...
    from_logits: bool | None  # None: cannot tell
    string: bool  # given as a string
    term: Term
    block: int


def loss_of(model: ModuleModel, term: Term, block: int) -> Loss | None:
    found = resolve(model, term, block, None)
    if found is None:
        return None
    term, block, _ = found
    if term.tag == "const" and isinstance(term.args[0], str):
        text = term.args[0].lower()
        return Loss(LOSS_NAMES.get(text, text), False, True, term, block)
    if term.tag == "call":
        name = qualname(model, term.args[0], block)
        if name is None or not name.startswith(_LOSS_MODULES):
            return None
        canonical = LOSS_CLASSES.get(name.rpartition(".")[2])
        if canonical is None:
            return None
        logits = call_argument(term, 0, "from_logits") if "Crossentropy" in name else None
        if logits is not None:
            value = constant(model, logits, block)
        else:
            value = None if _splats(term) else False
        flag = value if isinstance(value, bool) else None
        return Loss(canonical, flag, False, term, block)
    name = qualname(model, term, block)
    if name is None or not name.startswith(_LOSS_MODULES):
        return None
    short = name.rpartition(".")[2]
    return Loss(LOSS_NAMES.get(short, short), False, False, term, block)


@dataclass(frozen=True, slots=True)
class Metric:
    name: str  # "accuracy" for the string, else the class or function name
    string: bool
    # What makes the metric fit logits: the ``threshold(s)`` constant of a threshold metric, or
    # ``from_logits`` of AUC; None when not given (the default), ``UNKNOWN_SETTING`` otherwise.
    setting: object


UNKNOWN_SETTING = _UNKNOWN
_METRIC_NAMES = {"acc": "accuracy", "binary_accuracy": "BinaryAccuracy"}
# Where each metric class takes the setting: (keyword, position).
_SETTINGS = {
    "BinaryAccuracy": ("threshold", 2),
    "AUC": ("from_logits", 99),
}


def metric_of(model: ModuleModel, term: Term, block: int) -> Metric | None:
    found = resolve(model, term, block, None)
    if found is None:
        return None
    term, block, _ = found
    if term.tag == "const" and isinstance(term.args[0], str):
        text = term.args[0]
        return Metric(_METRIC_NAMES.get(text, text), True, None)
    if term.tag == "call":
        name = qualname(model, term.args[0], block)
        if name is None or not name.startswith("keras.metrics."):
            return None
        short = name.rpartition(".")[2]
        keyword, position = _SETTINGS.get(short, ("thresholds", 0))
        given = call_argument(term, position, keyword)
        if given is not None:
            setting = constant(model, given, block)
        else:
            setting = _UNKNOWN if _splats(term) else None
        return Metric(short, False, setting)
    return None


def compile_argument(call: ast.Call, name: str) -> ast.expr | None:
    """``compile(optimizer, loss, metrics, ...)``: an argument by name or position."""
    return argument(call, "compile", name)


def compile_sites(summary: Any) -> list[tuple[int, Site]]:
    return [(k, site) for k, site in _sites(summary) if site.method == "compile"]


def fit_sites(
    model: ModuleModel, key: Key, summary: Any, memo: dict[Any, Any]
) -> list[tuple[int, Site]]:
    return [
        (k, site)
        for k, site in _sites(summary)
        if site.method == "fit"
        and (found := _site_key(model, k, site, memo)) is not None
        and found[0] == key
    ]
