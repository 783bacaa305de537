"""What the weight-tracking detectors (TFL3xx) need to know about Keras objects and their state.

Keras finds weights by walking the attributes of a Layer or Model: ``self.x = ...`` and
lists, dicts and tuples stored there.  Everything else (a plain Python object, a module
global, a class attribute, a raw ``tf.Variable`` on Keras 3) is invisible to it.  This module
answers three questions for the detectors in :mod:`tracking`:

- what a call constructs (:func:`state_kind`);
- which Keras method a node belongs to (:func:`keras_method`);
- where the value of a call ends up (:func:`stored_where`).

The module facts that link a model to helpers defined in other blocks live with TFL304 in
:mod:`tracking_holders`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.index import FunctionNode
from tflsp.analysis.names import canonical, dotted
from tflsp.analysis.semantic import values as v
from tflsp.analysis.summary import ModuleSummary

TF_VARIABLES = frozenset(
    {"tensorflow.Variable", "tensorflow.compat.v1.Variable", "tensorflow.compat.v2.Variable"}
)
KERAS_VARIABLE = "keras.Variable"
GET_VARIABLE = "tensorflow.compat.v1.get_variable"
TF1_LAYERS = "tensorflow.compat.v1.layers."

# Layers without variables: creating them anywhere, or keeping them anywhere, loses nothing.
STATELESS_LAYERS = frozenset(
    {
        "Activation",
        "ReLU",
        "LeakyReLU",
        "ELU",
        "Softmax",
        "ThresholdedReLU",
        "Flatten",
        "Reshape",
        "Permute",
        "RepeatVector",
        "Lambda",
        "Concatenate",
        "Add",
        "Subtract",
        "Multiply",
        "Average",
        "Maximum",
        "Minimum",
        "Dot",
        "Identity",
        "Masking",
        "ActivityRegularization",
        "Rescaling",
        "Resizing",
        "CenterCrop",
        *(f"{kind}{dims}D" for kind in ("Cropping", "ZeroPadding", "UpSampling") for dims in "123"),
        *(
            f"{prefix}{dims}D"
            for prefix in (
                "MaxPooling",
                "MaxPool",
                "AveragePooling",
                "AvgPool",
                "GlobalMaxPooling",
                "GlobalMaxPool",
                "GlobalAveragePooling",
                "GlobalAvgPool",
            )
            for dims in "123"
        ),
    }
)
# Layers whose only state is a Keras 3 seed generator (a variable); on Keras 2 they hold none.
# (The Random* augmentation layers hold generator state on both versions: plain layers here.)
RANDOM_LAYERS = frozenset(
    {
        "Dropout",
        "SpatialDropout1D",
        "SpatialDropout2D",
        "SpatialDropout3D",
        "GaussianDropout",
        "GaussianNoise",
        "AlphaDropout",
    }
)
# Capitalised names under keras.layers that are not layers.
NOT_LAYERS = frozenset({"InputSpec", "Layer", "InputLayer"})

# Methods that put a value into a container held by the receiver.
ADDERS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})
# Methods Keras calls before the first forward pass; state created there is created once.
SETUP_METHODS = frozenset({"__init__", "build"})


# -- what a call constructs ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Constructed:
    """``kind``: variable (tf.Variable) | keras_variable | layer | stateless_layer |
    random_layer | model | metric | module (tf.Module) | plain (a local non-Keras class or a
    namespace object).  ``name`` is the callee as written, for messages."""

    kind: str
    name: str
    class_id: str | None = None  # for classes defined in this module


def last_name(func: ast.expr) -> str:
    """``Dense`` for ``keras.layers.Dense`` or ``Dense``: a cheap filter before resolving."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _last(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def canonical_kind(qualname: str) -> str | None:
    """Kind of a canonical Keras or TensorFlow constructor name."""
    if qualname in TF_VARIABLES:
        return "variable"
    if qualname == KERAS_VARIABLE:
        return "keras_variable"
    last = _last(qualname)
    if not last[:1].isupper():
        return None
    if qualname.startswith("keras.layers."):
        if last in NOT_LAYERS:
            return None
        if last in STATELESS_LAYERS:
            return "stateless_layer"
        if last in RANDOM_LAYERS:
            return "random_layer"
        return "layer"
    if qualname in ("keras.Sequential", "keras.Model") or qualname.startswith("keras.models."):
        return "model"
    if qualname.startswith("keras.applications.") and qualname.count(".") == 2:
        return "model"
    if qualname.startswith("keras.metrics."):
        return "metric"
    if qualname == "tensorflow_hub.KerasLayer":
        return "layer"
    if qualname == "tensorflow.Module":
        return "module"
    if qualname == "types.SimpleNamespace":
        return "plain"
    return None


# The summary the name table below was built for; one entry is enough because every block of
# a module is checked against the same summary.
_class_table: tuple[ModuleSummary | None, dict[str, tuple[str, str]]] = (None, {})


def local_class_kind(summary: ModuleSummary, name: str) -> tuple[str, str] | None:
    """``(class id, kind)`` of a class defined in this module and called by ``name``.

    kind is ``layer`` | ``model`` | ``module`` | ``plain``.  Nested classes are found by
    their own name too; the first definition wins when two share a name.
    """
    global _class_table
    owner, table = _class_table
    if owner is not summary:
        table = {}
        for class_id, facts in summary.classes.items():
            table.setdefault(facts.name, (class_id, summary.keras_classes.get(class_id, "plain")))
        _class_table = (summary, table)
    return table.get(name)


_STATE_METHODS = frozenset({"build", "add_weight", "add_variable"})


def stateless_local_layer(ctx: BlockContext, class_id: str) -> bool:
    """A layer class of this module that holds nothing: no ``build``, no weights, nothing but
    plain values on ``self``, and only ``keras.Layer`` (or such classes) as bases.  Making
    one per call loses nothing."""
    model = ctx.model
    for gid in model.mro(class_id):
        entry = model.classes.get(gid)
        if entry is None:
            return False
        facts = entry.facts
        if "build" in facts.methods:
            return False
        for base in facts.bases:
            for value in model.value(base, entry.block):
                if value.kind == v.CLASS and value.is_local:
                    continue
                if value.kind != v.NAME or canonical(value.ref) != "keras.Layer":
                    return False
        for _, term in facts.attributes:
            values = model.value(term, entry.block)
            if not v.all_of(values, lambda x: x.kind in (*v.SCALARS, v.STR, v.NONE)):
                return False
        block = model.blocks[entry.block]
        prefix = facts.local_id + "."
        for call in block.calls:
            func = call.func
            if (
                call.scope is not None
                and call.scope.startswith(prefix)
                and func.tag == "attr"
                and func.args[1] in _STATE_METHODS
            ):
                return False
    return True


def state_kind(ctx: BlockContext, call: ast.Call) -> Constructed | None:
    func = call.func
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    text = dotted(func)
    if text is None:
        return None
    qualname = ctx.resolve(func)
    if qualname is not None:
        kind = canonical_kind(qualname)
        return Constructed(kind, text) if kind else None
    if isinstance(func, ast.Name):
        local = local_class_kind(ctx.summary, text)
        if local is not None:
            return Constructed(local[1], text, local[0])
    return None


# Kinds that carry weights Keras should see.
WEIGHTED = frozenset({"variable", "keras_variable", "layer", "model"})


# -- Keras methods ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Method:
    cls: ast.ClassDef
    kind: str  # "layer" | "model"
    fn: FunctionNode
    self_name: str | None


def keras_method(ctx: BlockContext, node: ast.AST) -> Method | None:
    """The method of a Keras Layer/Model whose body holds ``node`` (nested defs included)."""
    fn: FunctionNode | None = None
    for scope in ctx.index.ancestors(node):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn = scope
        elif isinstance(scope, ast.ClassDef):
            if fn is None:
                return None
            kind = ctx.keras_kind(scope)
            if kind not in ("layer", "model"):
                return None
            return Method(scope, kind, fn, first_param(fn))
    return None


def first_param(fn: FunctionNode) -> str | None:
    params = [*fn.args.posonlyargs, *fn.args.args]
    return params[0].arg if params else None


def within(fn: ast.AST, node: ast.AST) -> bool:
    """Cheap containment test by source lines (both from the same block)."""
    start = getattr(fn, "lineno", 0)
    end = getattr(fn, "end_lineno", None) or start
    line = getattr(node, "lineno", -1)
    return start <= line <= end


# -- where a value is stored --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Store:
    """Where a constructed value ends up.

    ``owner``: ``self`` (an attribute of the Keras object, maybe inside a container) or
    ``helper`` (an attribute of an object that ``self.<holder>`` refers to).  ``attr`` is
    the attribute of ``self`` involved; ``path`` the whole target (``parts.hidden``);
    ``in_set`` says a set holds the value.
    """

    owner: str
    attr: str
    path: str
    in_set: bool
    statement: ast.AST


def _self_path(target: ast.AST, self_name: str) -> list[str] | None:
    """``self.a.b`` -> ["a", "b"]; subscripts are looked through; None when not on self."""
    parts: list[str] = []
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
        else:
            parts.clear()  # self.d["k"] = v stores into the container self.d
        node = node.value
    if isinstance(node, ast.Name) and node.id == self_name and parts:
        return list(reversed(parts))
    return None


def _store_for(target: ast.AST, self_name: str, in_set: bool, stmt: ast.AST) -> Store | None:
    path = _self_path(target, self_name)
    if path is None:
        return None
    owner = "self" if len(path) == 1 else "helper"
    return Store(owner, path[0], ".".join(path), in_set, stmt)


_SET_BUILDERS = frozenset({"builtins.set", "builtins.frozenset"})
_PLAIN_BUILDERS = frozenset({"builtins.list", "builtins.tuple", "builtins.dict"})


def _climb(ctx: BlockContext, node: ast.AST) -> tuple[ast.AST, ast.AST | None, bool]:
    """Go up through containers and conditional expressions around ``node``.

    Returns the outermost container expression, the node that consumes it and whether a
    set was crossed on the way.
    """
    in_set = False
    while True:
        parent = ctx.index.parent(node)
        if isinstance(parent, (ast.List, ast.Tuple, ast.Starred, ast.IfExp)):
            pass
        elif isinstance(parent, ast.Set):
            in_set = True
        elif isinstance(parent, ast.Dict):
            if node not in parent.values:
                return node, parent, in_set
        elif isinstance(parent, (ast.ListComp, ast.GeneratorExp)):
            if node is not parent.elt:
                return node, parent, in_set
        elif isinstance(parent, ast.SetComp):
            if node is not parent.elt:
                return node, parent, in_set
            in_set = True
        elif isinstance(parent, ast.DictComp):
            if node is not parent.value:
                return node, parent, in_set
        elif isinstance(parent, ast.Call) and node in parent.args:
            name = ctx.resolve(parent.func)
            if name in _SET_BUILDERS:
                in_set = True
            elif name not in _PLAIN_BUILDERS:
                return node, parent, in_set
        else:
            return node, parent, in_set
        node = parent


def stored_where(ctx: BlockContext, value: ast.AST, method: Method) -> Store | None:
    """Where ``value`` (inside ``method``) is kept on ``self``, if anywhere.

    Follows containers, ``self.x.append(value)`` and one local name
    (``w = tf.Variable(...); self.w = w``).
    """
    if method.self_name is None:
        return None
    store = _direct_store(ctx, value, method.self_name)
    if store is not None:
        return store
    _, consumer, in_set = _climb(ctx, value)
    local = _assigned_name(consumer)
    if local is None:
        return None
    for name in ctx.index.nodes(ast.Name):
        if name.id != local or not isinstance(name.ctx, ast.Load) or not within(method.fn, name):
            continue
        found = _direct_store(ctx, name, method.self_name)
        if found is not None:
            return Store(
                found.owner, found.attr, found.path, found.in_set or in_set, found.statement
            )
    return None


def _assigned_name(consumer: ast.AST | None) -> str | None:
    if isinstance(consumer, ast.Assign) and len(consumer.targets) == 1:
        target = consumer.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    if isinstance(consumer, (ast.AnnAssign, ast.NamedExpr)) and isinstance(
        consumer.target, ast.Name
    ):
        return consumer.target.id
    return None


def _direct_store(ctx: BlockContext, value: ast.AST, self_name: str) -> Store | None:
    _, consumer, in_set = _climb(ctx, value)
    if isinstance(consumer, ast.Assign):
        for target in consumer.targets:
            store = _store_for(target, self_name, in_set, consumer)
            if store is not None:
                return store
    elif isinstance(consumer, ast.AnnAssign):
        return _store_for(consumer.target, self_name, in_set, consumer)
    elif isinstance(consumer, ast.Call):
        func = consumer.func
        if isinstance(func, ast.Attribute) and func.attr in ADDERS:
            return _store_for(func.value, self_name, in_set or func.attr == "add", consumer)
    return None


def self_assignments(ctx: BlockContext, cls: ast.ClassDef) -> Iterator[tuple[str, ast.expr]]:
    """``(attr, value)`` for every ``self.attr = value`` in the methods of ``cls``."""
    for assign in ctx.index.nodes(ast.Assign):
        if not within(cls, assign):
            continue
        method = _method_of(ctx, assign, cls)
        if method is None:
            continue
        self_name = first_param(method)
        for target in assign.targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == self_name
            ):
                yield target.attr, assign.value


def _method_of(ctx: BlockContext, node: ast.AST, cls: ast.ClassDef) -> FunctionNode | None:
    fn: FunctionNode | None = None
    for scope in ctx.index.ancestors(node):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn = scope
        elif isinstance(scope, ast.ClassDef):
            return fn if scope is cls else None
    return None


def has_keras_class(ctx: BlockContext) -> bool:
    """Every TFL3 rule looks inside a Keras Layer/Model class; most blocks have none."""
    if not ctx.index.nodes(ast.ClassDef):
        return False
    return any(kind in ("layer", "model") for _, kind in ctx.keras_classes())
