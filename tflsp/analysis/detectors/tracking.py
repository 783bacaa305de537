"""Weight-tracking family (TFL3xx): state that Keras never sees, so fit() skips it and save() drops it.

The facts behind each rule (TF 2.21, Keras 3.15 and tf-keras 2.21) are in the catalog entries;
the shared analysis (what a call builds, where its value is stored) is in
:mod:`tracking_support`, and TFL304 (state on helpers, globals, sets) in :mod:`tracking_holders`.
"""

from __future__ import annotations

import ast
import re

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.tracking_holders import holder_classes
from tflsp.analysis.detectors.tracking_support import (
    GET_VARIABLE,
    SETUP_METHODS,
    TF1_LAYERS,
    TF_VARIABLES,
    Method,
    has_keras_class,
    keras_method,
    last_name,
    state_kind,
    stateless_local_layer,
    stored_where,
    within,
)
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.facts import KERAS_GRAPH_METHODS
from tflsp.analysis.index import FunctionNode
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector
from tflsp.analysis.summary import GraphInfo

# -- TFL301: tf.Variable on a Keras 3 layer ------------------------------------------------
_KERAS_VARIABLE_KEYWORDS = frozenset({"trainable", "name", "dtype", "shape"})


def _keras_module_name(ctx: BlockContext) -> str | None:
    """How this module spells Keras 3's namespace: ``keras`` or ``tf.keras``."""
    for local, target in ctx.summary.imports.items():
        if target in ("keras", "tensorflow.keras"):
            return local
    tf_name = ctx.alias_for("tensorflow")
    return f"{tf_name}.keras" if tf_name else None


def _keras_variable_fix(ctx: BlockContext, call: ast.Call) -> Fix | None:
    """``tf.Variable(value, name=...)`` -> ``keras.Variable(value, name=...)`` when it maps 1:1.

    Unsafe: the checkpoint layout and a saved model change, which is the point, but it is
    still a behaviour change the user should look at.
    """
    keras_name = _keras_module_name(ctx)
    if keras_name is None or len(call.args) > 1:
        return None
    if any(isinstance(arg, ast.Starred) for arg in call.args):
        return None
    edits: list[Edit] = [ctx.replace(call.func, f"{keras_name}.Variable")]
    initial: ast.expr | None = call.args[0] if call.args else None
    has_shape = False
    for kw in call.keywords:
        if kw.arg == "initial_value" and initial is None:
            initial = kw.value
            edits.append(ctx.replace(kw, f"initializer={ctx.source(kw.value)}"))
        elif kw.arg in _KERAS_VARIABLE_KEYWORDS:
            has_shape = has_shape or kw.arg == "shape"
            # keras.Variable refuses "/" in names.
            if kw.arg == "name" and not (
                isinstance(kw.value, ast.Constant)
                and isinstance(kw.value.value, str)
                and "/" not in kw.value.value
            ):
                return None
        else:
            return None
    # keras.Variable calls a callable initial value with a shape, which tf.Variable did not need.
    if initial is None or (isinstance(initial, ast.Lambda) and not has_shape):
        return None
    return ctx.fix(*edits, safe=False, new=f"{keras_name}.Variable")


_VARIABLE = ("Variable",)
_GET_VARIABLE = ("get_variable",)


@detector("TFL301")
def raw_variable_in_layer(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    for call in calls_of(ctx, _VARIABLE, _VARIABLE):
        if ctx.resolve(call.func) not in TF_VARIABLES:
            continue
        method = keras_method(ctx, call)
        if method is None:
            continue
        store = stored_where(ctx, call, method)
        # Variables on helper objects and in class bodies are TFL304's.
        if store is None or store.owner != "self":
            continue
        ctx.report(
            "TFL301",
            call.func,
            args={"attr": f"self.{store.attr}", "cls": method.cls.name},
            fix=_keras_variable_fix(ctx, call),
        )


# -- TFL302: tf.compat.v1.get_variable in a Keras layer -------------------------------------
def _has_tf1_shim(ctx: BlockContext, fn: FunctionNode) -> bool:
    """``@tf.compat.v1.keras.utils.track_tf1_style_variables`` makes Keras 2 track them."""
    for deco in fn.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = ctx.resolve(target) or dotted(target) or ""
        if name.endswith("track_tf1_style_variables"):
            return True
    return False


@detector("TFL302")
def get_variable_in_layer(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    for call in calls_of(ctx, _GET_VARIABLE, _GET_VARIABLE):
        if ctx.resolve(call.func) != GET_VARIABLE:
            continue
        method = keras_method(ctx, call)
        if method is None:
            continue
        args = {"cls": method.cls.name, "method": method.fn.name}
        if ctx.keras_version == 3:
            ctx.report("TFL302", call.func, args=args)
            continue
        # Keras 2 tracks a variable made once in __init__/build and kept on self.
        if _has_tf1_shim(ctx, method.fn):
            continue
        if method.fn.name in SETUP_METHODS:
            store = stored_where(ctx, call, method)
            if store is not None and store.owner == "self" and not store.in_set:
                continue
        ctx.report("TFL302", call.func, message="keras2", args=args)


# -- TFL303: a layer constructed in call / train_step ---------------------------------------
def _keras_origin(ctx: BlockContext, info: GraphInfo) -> str | None:
    """The Keras method (``Head.call``) whose graph the code belongs to, if any."""
    origin = ctx.summary.functions.get(info.origin)
    if origin is None or origin.class_id is None:
        return None
    if ctx.summary.keras_classes.get(origin.class_id) not in ("layer", "model"):
        return None
    return origin.id


def _guarded_by(ctx: BlockContext, node: ast.AST, method: Method, attr: str) -> bool:
    """``if self.attr is None:`` (or ``not hasattr(self, "attr")``) around ``node``."""
    for scope in ctx.index.ancestors(node):
        if scope is method.fn:
            return False
        if isinstance(scope, ast.If):
            for part in ast.walk(scope.test):
                if (
                    isinstance(part, ast.Attribute)
                    and part.attr == attr
                    and isinstance(part.value, ast.Name)
                    and part.value.id == method.self_name
                ):
                    return True
                if (
                    isinstance(part, ast.Constant)
                    and part.value == attr
                    and isinstance(ctx.index.parent(part), ast.Call)
                ):
                    return True
    return False


@detector("TFL303")
def layer_created_in_call(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    for call in ctx.index.nodes(ast.Call):
        if not last_name(call.func)[:1].isupper():
            continue
        info = ctx.graph_info(call)
        if info is None:
            continue
        origin = _keras_origin(ctx, info)
        if origin is None:
            continue
        built = state_kind(ctx, call)
        if built is None:
            continue
        kind = built.kind
        if kind == "plain" and built.class_id not in holder_classes(ctx.summary):
            continue
        if kind == "layer" and built.class_id and stateless_local_layer(ctx, built.class_id):
            continue  # a local layer that holds no state: nothing is lost
        if kind == "random_layer" and ctx.keras_version != 3:
            continue  # Keras 2 dropout-style layers own no variables
        if kind not in ("layer", "model", "metric", "random_layer", "plain"):
            continue
        args = {"layer": built.name, "function": origin}
        method = keras_method(ctx, call)
        store = stored_where(ctx, call, method) if method is not None else None
        if (
            method is not None
            and store is not None
            and store.owner == "self"
            and _guarded_by(ctx, call, method, store.attr)
        ):
            # Created once and kept: Keras 2 accepts it, Keras 3 refuses state after build.
            if ctx.keras_version == 3:
                ctx.report(
                    "TFL303",
                    call,
                    message="lazy",
                    args={**args, "attr": store.attr, "cls": method.cls.name},
                )
            continue
        ctx.report(
            "TFL303", call, message="random" if kind == "random_layer" else "default", args=args
        )


# -- TFL305: __init__ without super().__init__() --------------------------------------------
def _calls_an_init(
    ctx: BlockContext, fn: FunctionNode, cls: ast.ClassDef, seen: frozenset[str] = frozenset()
) -> bool:
    """``fn`` calls some ``__init__``, itself or through a method of ``cls`` it calls on
    ``self`` (``self._setup(...)`` whose body calls ``super().__init__()``)."""
    helpers: list[str] = []
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and within(fn, call)):
            continue
        if func.attr == "__init__":
            return True
        if isinstance(func.value, ast.Name) and func.value.id == "self":
            helpers.append(func.attr)
    methods = {
        stmt.name: stmt
        for stmt in cls.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    return any(
        _calls_an_init(ctx, methods[name], cls, seen | {name})
        for name in helpers
        if name in methods and name not in seen and len(seen) < 3
    )


def _def_span(ctx: BlockContext, fn: FunctionNode) -> tuple[int, int, int, int]:
    line = fn.lineno
    col = ctx.char_col(line, fn.col_offset)
    text = ctx.line_text(line)
    at = text.find(fn.name, col)
    end = at + len(fn.name) if at >= 0 else col + 3
    return (line, col, line, end)


def _super_init_fix(ctx: BlockContext, fn: FunctionNode) -> Fix | None:
    """Insert ``super().__init__(**kwargs)`` as the first statement (after a docstring)."""
    kwargs = f"**{fn.args.kwarg.arg}" if fn.args.kwarg else ""
    call_text = f"super().__init__({kwargs})"
    body = fn.body
    first = body[0]
    has_doc = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    anchor = body[1] if has_doc and len(body) > 1 else first
    line, col, end_line, end_col = ctx.node_range(anchor)
    indent = ctx.line_text(line)[:col]
    if indent.strip():
        return None  # the statement shares its line with other code (``def f(): x = 1``)
    if has_doc and anchor is first:
        edit = ctx.insert_at(end_line, end_col, f"\n{indent}{call_text}")
    else:
        edit = ctx.insert_at(line, col, f"{call_text}\n{indent}")
    return ctx.fix(edit, safe=True, call=call_text)


@detector("TFL305")
def missing_super_init(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    for cls, kind in ctx.keras_classes():
        if kind not in ("layer", "model"):
            continue
        for stmt in cls.body:
            if (
                isinstance(stmt, ast.FunctionDef)
                and stmt.name == "__init__"
                and not _calls_an_init(ctx, stmt, cls)
            ):
                ctx.report(
                    "TFL305",
                    _def_span(ctx, stmt),
                    args={"cls": cls.name},
                    fix=_super_init_fix(ctx, stmt),
                )


# -- TFL306: tf.compat.v1.layers inside a Keras model --------------------------------------
# tf.compat.v1.layers functions and the Keras class that replaces each.
_TF1_LAYER_CLASSES = {
    "dense": "Dense",
    "dropout": "Dropout",
    "flatten": "Flatten",
    "batch_normalization": "BatchNormalization",
    "conv1d": "Conv1D",
    "conv2d": "Conv2D",
    "conv3d": "Conv3D",
    "conv2d_transpose": "Conv2DTranspose",
    "conv3d_transpose": "Conv3DTranspose",
    "separable_conv1d": "SeparableConv1D",
    "separable_conv2d": "SeparableConv2D",
    "average_pooling1d": "AveragePooling1D",
    "average_pooling2d": "AveragePooling2D",
    "average_pooling3d": "AveragePooling3D",
    "max_pooling1d": "MaxPooling1D",
    "max_pooling2d": "MaxPooling2D",
    "max_pooling3d": "MaxPooling3D",
}


def _keras_class_for(function: str) -> str:
    known = _TF1_LAYER_CLASSES.get(function)
    if known is not None:
        return known
    # conv2d_transpose -> Conv2DTranspose: the spelling every other entry follows.
    camel = "".join(part[:1].upper() + part[1:] for part in function.split("_"))
    return re.sub(r"(\d)d", r"\1D", camel)


@detector("TFL306")
def tf1_layers_in_model(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    for call in ctx.index.nodes(ast.Call):
        text = dotted(call.func)
        if text is None:
            continue
        # Only tf.compat.v1 spellings can reach tf.compat.v1.layers: resolve nothing else.
        target = ctx.summary.imports.get(text.partition(".")[0], "")
        if "compat" not in text and "compat.v1" not in target:
            continue
        qualname = ctx.resolve(call.func)
        if qualname is None or not qualname.startswith(TF1_LAYERS):
            continue
        method = keras_method(ctx, call)
        if method is None:
            continue
        name = qualname[len(TF1_LAYERS) :]
        last = name.rsplit(".", 1)[-1]
        keras_class = last if last[:1].isupper() else _keras_class_for(last)
        args = {"api": f"tf.compat.v1.layers.{name}", "cls": method.cls.name, "layer": keras_class}
        if ctx.keras_version == 3:
            ctx.report("TFL306", call.func, args=args)
        elif last[:1].islower() or method.fn.name in KERAS_GRAPH_METHODS:
            # Keras 2 tracks a tf.compat.v1.layers.Dense kept on self; the functions never.
            ctx.report("TFL306", call.func, message="keras2", args=args)
