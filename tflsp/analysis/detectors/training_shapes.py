"""TFL818 input-rank-mismatch: a recurrent or convolution layer whose input has the wrong rank,
as far as the shapes are literal.

Two places show an input's rank without running anything: a layer's own ``input_shape=``
literal, and the layers of ``Sequential([...])`` followed from a literal ``Input(shape)``
through layers whose output shape is plain arithmetic (Dense, Dropout, recurrent layers with
or without ``return_sequences``, Flatten...).  Any other layer ends the walk: silent.
"""

from __future__ import annotations

import ast
import math

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.fit_calls import built_by, term_int, term_qualname
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic.model import ModuleModel
from tflsp.analysis.semantic.terms import Term

Shape = tuple[int | None, ...]  # without the batch axis

_RECURRENT = frozenset({"LSTM", "GRU", "SimpleRNN", "CuDNNLSTM", "CuDNNGRU"})
# layer -> spatial rank (Conv1D: 1): input rank must be at least rank + 2 with the batch axis
_CONVOLUTIONS = {
    "Conv1D": 1,
    "Conv2D": 2,
    "Conv3D": 3,
    "SeparableConv1D": 1,
    "SeparableConv2D": 2,
    "DepthwiseConv2D": 2,
    "Conv1DTranspose": 1,
    "Conv2DTranspose": 2,
    "Conv3DTranspose": 3,
    "Convolution1D": 1,
    "Convolution2D": 2,
    "Convolution3D": 3,
}
_SAME_SHAPE = frozenset(
    {
        "Dropout",
        "BatchNormalization",
        "LayerNormalization",
        "Activation",
        "GaussianNoise",
        "GaussianDropout",
        "AlphaDropout",
        "ActivityRegularization",
        "LeakyReLU",
        "ReLU",
        "ELU",
        "PReLU",
        "Softmax",
        "Masking",
    }
)
_INPUTS = frozenset({"keras.Input", "keras.layers.Input"})
_EXPECTED = {
    3: "(batch, timesteps, features)",
    4: "(batch, rows, cols, channels)",
    5: "(batch, depth, rows, cols, channels)",
}


def _layer(ctx: BlockContext, call: ast.Call) -> str | None:
    name = ctx.call_name(call)
    if name is None or not name.startswith("keras.layers."):
        return None
    return name[len("keras.layers.") :]


def _literal_shape(ctx: BlockContext, node: ast.expr | None) -> Shape | None:
    if not isinstance(node, (ast.Tuple, ast.List)) or any(
        isinstance(e, ast.Starred) for e in node.elts
    ):
        return None
    dims: list[int | None] = []
    for element in node.elts:
        if isinstance(element, ast.Constant) and element.value is None:
            dims.append(None)
            continue
        found = ctx.value(element)
        constants = [x.const for x in found if x.kind == "int"]
        dims.append(constants[0] if len(constants) == 1 and len(found) == 1 else None)  # type: ignore[arg-type]
    return tuple(dims)


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _int(ctx: BlockContext, node: ast.expr | None) -> int | None:
    if node is None:
        return None
    found = ctx.value(node)
    if len(found) == 1:
        (value,) = found
        if value.kind == "int" and isinstance(value.const, int):
            return value.const
    return None


def _flag(node: ast.expr | None) -> bool | None:
    if node is None:
        return False
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    return None


def _text(shape: Shape) -> str:
    parts = ["None", *("?" if d is None else str(d) for d in shape)]
    return f"({', '.join(parts)})" if len(parts) > 1 else "(None,)"


@detector("TFL818")
def input_rank(ctx: BlockContext) -> None:
    calls = ctx.index.nodes(ast.Call)
    if not calls:
        return  # only calls build layers
    seen: set[ast.Call] = set()
    # Cheap syntactic filters first (a literal list argument, an input_shape keyword): name
    # resolution is the costly part, and most calls have neither.
    for call in calls:
        layers: ast.expr | None
        if call.args:
            layers = call.args[0]
        elif call.keywords:
            layers = _kw(call, "layers")
        else:
            continue
        if isinstance(layers, (ast.List, ast.Tuple)) and ctx.call_name(call) in (
            "keras.Sequential",
            "keras.models.Sequential",
        ):
            _walk(ctx, layers.elts, seen)
    for call in calls_of(ctx, keywords=("input_shape",)):
        given = _kw(call, "input_shape")
        if given is None or call in seen:
            continue
        layer = _layer(ctx, call)
        shape = _literal_shape(ctx, given)
        if layer is not None and shape is not None:
            _check(ctx, call, layer, shape, None)
    _functional(ctx, calls)


# -- the functional API: ``LSTM(8)(inputs)`` with ``inputs = Input(literal shape)`` ----------
def _functional(ctx: BlockContext, calls: list[ast.Call]) -> None:
    for call in calls:
        # A layer applied to one tensor: ``LSTM(8)(x)`` or ``lstm(x)``.
        if len(call.args) != 1 or not isinstance(call.func, (ast.Call, ast.Name)):
            continue
        if isinstance(call.func, ast.Call) and not isinstance(
            call.func.func, (ast.Name, ast.Attribute)
        ):
            continue
        if not ctx.is_instance_of(call.func, "layer"):
            continue
        model = ctx.model
        terms = ctx.semantics.terms
        layer = _term_layer(model, terms.expr(call.func), ctx.ordinal)
        if layer is None:
            continue
        name, wrapped, _ = layer
        if (wrapped or name) not in _RECURRENT and (wrapped or name) not in _CONVOLUTIONS:
            continue
        found = _term_shape(model, terms.expr(call.args[0]), ctx.ordinal, 0)
        if found is not None:
            shape, before = found
            _check(ctx, call, name, shape, before, wrapped)


LayerTerm = tuple[str, "str | None", tuple[tuple[Term, ...], dict[str, Term], int]]


def _term_layer(model: ModuleModel, term: Term, block: int) -> LayerTerm | None:
    """(layer class, the layer a Bidirectional wraps, its constructor's arguments)."""
    built = built_by(model, term, block)
    if built is None:
        return None
    func, args, kwargs, block = built
    name = term_qualname(model, func, block)
    if name is None or not name.startswith("keras.layers."):
        return None
    layer = name[len("keras.layers.") :]
    wrapped = None
    if layer == "Bidirectional" and args:
        inner = _term_layer(model, args[0], block)
        wrapped = inner[0] if inner is not None else None
    return layer, wrapped, (args, kwargs, block)


def _term_shape(model: ModuleModel, term: Term, block: int, depth: int) -> tuple[Shape, str] | None:
    """The literal shape of a symbolic tensor (without the batch axis) and what made it."""
    if depth > 12:
        return None
    built = built_by(model, term, block)
    if built is None:
        return None
    func, args, kwargs, block = built
    if term_qualname(model, func, block) in _INPUTS:
        given = args[0] if args else kwargs.get("shape")
        if given is None or given.tag not in ("tuple", "list"):
            return None
        dims = tuple(
            None if d.tag == "const" and d.args[0] is None else term_int(model, d, block)
            for d in given.args[0]
        )
        return dims, "Input"
    if len(args) != 1:
        return None
    layer = _term_layer(model, func, block)
    if layer is None:
        return None
    below = _term_shape(model, args[0], block, depth + 1)
    if below is None:
        return None
    name, wrapped, (ctor_args, ctor_kwargs, ctor_block) = layer
    shape = _term_output(model, name, ctor_args, ctor_kwargs, ctor_block, below[0])
    return (shape, wrapped or name) if shape is not None else None


def _term_output(
    model: ModuleModel,
    layer: str,
    args: tuple[Term, ...],
    kwargs: dict[str, Term],
    block: int,
    shape: Shape,
) -> Shape | None:
    """What ``_output`` says, for a layer known by its constructor's terms."""
    if layer in _SAME_SHAPE:
        return shape
    first = args[0] if args else None
    if layer == "Dense":
        units_term = kwargs.get("units", first)
        units = term_int(model, units_term, block) if units_term is not None else None
        return (*shape[:-1], units) if shape else None
    if layer in _RECURRENT:
        flag = kwargs.get("return_sequences")
        if flag is not None and not (flag.tag == "const" and isinstance(flag.args[0], bool)):
            return None
        if "return_state" in kwargs:
            return None  # a list of tensors
        units_term = kwargs.get("units", first)
        units = term_int(model, units_term, block) if units_term is not None else None
        sequences = flag is not None and flag.args[0] is True
        return (shape[0], units) if sequences and shape else (units,)
    if layer in _CONVOLUTIONS:
        spatial = _CONVOLUTIONS[layer]
        filters = kwargs.get("filters", first)
        count = term_int(model, filters, block) if filters is not None else None
        return (*shape[: -spatial - 1], *(None,) * spatial, count)
    if layer.startswith(("MaxPooling", "AveragePooling", "MaxPool", "AvgPool")) and shape:
        return (*(None,) * (len(shape) - 1), shape[-1])
    if layer.startswith(("GlobalAveragePooling", "GlobalMaxPooling")) and shape:
        return (shape[-1],)
    if layer == "Flatten":
        known = [d for d in shape if d is not None]
        return (math.prod(known),) if len(known) == len(shape) else (None,)
    return None


def _walk(ctx: BlockContext, elements: list[ast.expr], seen: set[ast.Call]) -> None:
    shape: Shape | None = None
    before: str | None = None
    for index, element in enumerate(elements):
        if not isinstance(element, ast.Call):
            return
        name = ctx.call_name(element)
        if name in _INPUTS:
            if index:
                return
            shape = _literal_shape(ctx, element.args[0] if element.args else _kw(element, "shape"))
            before = "Input"
            continue
        layer = _layer(ctx, element)
        if layer is None:
            return
        if layer == "InputLayer":
            if index:
                return
            given = _kw(element, "shape") or _kw(element, "input_shape")
            shape = _literal_shape(ctx, given)
            before = "Input"
            continue
        seen.add(element)
        if index == 0 or shape is None:
            own = _literal_shape(ctx, _kw(element, "input_shape"))
            if index == 0 and own is not None:
                shape = own
                before = "Input"
            elif index == 0 and _int(ctx, _kw(element, "input_dim")) is not None:
                shape = (_int(ctx, _kw(element, "input_dim")),)
                before = "Input"
        if shape is None:
            return
        if not _check(ctx, element, layer, shape, before):
            return
        shape = _output(ctx, element, layer, shape)
        before = layer
        if shape is None:
            return


def _check(
    ctx: BlockContext,
    call: ast.Call,
    layer: str,
    shape: Shape,
    before: str | None,
    wrapped: str | None = None,
) -> bool:
    """Report a wrong rank; True when the walk may go on."""
    rank = len(shape) + 1
    inner = wrapped or layer
    if layer == "Bidirectional" and call.args and isinstance(call.args[0], ast.Call):
        inner = _layer(ctx, call.args[0]) or layer
    if inner in _RECURRENT:
        needed, exact = 3, True
    elif inner in _CONVOLUTIONS:
        needed, exact = _CONVOLUTIONS[inner] + 2, False
    else:
        return True
    if rank == needed or (not exact and rank > needed):
        return True
    ctx.report(
        "TFL818",
        call,
        args={
            "layer": inner if inner == layer else f"{layer}({inner})",
            "expected": _EXPECTED.get(needed, f"rank {needed}"),
            "found": rank,
            "shape": _text(shape),
            "needed": needed,
            "hint": _hint(inner, shape, needed, before),
        },
    )
    return False


def _hint(layer: str, shape: Shape, needed: int, before: str | None) -> str:
    if before in _RECURRENT and layer in _RECURRENT:
        return f"set return_sequences=True on the {before} before it"
    if len(shape) + 1 < needed:
        axis = "a feature axis" if layer in _RECURRENT else "a channel axis"
        example = _text((*shape, 1))[len("(None, ") : -1]
        return f"add {axis}: input shape ({example}) and data reshaped to match"
    return "reshape the input to the rank the layer expects (layers.Reshape)"


def _output(ctx: BlockContext, call: ast.Call, layer: str, shape: Shape) -> Shape | None:
    if layer in _SAME_SHAPE:
        return shape
    units = _int(ctx, call.args[0] if call.args else _kw(call, "units"))
    if layer == "Dense":
        return (*shape[:-1], units) if shape else None
    if layer in _RECURRENT:
        sequences = _flag(_kw(call, "return_sequences"))
        if sequences is None:
            return None
        return (shape[0], units) if sequences else (units,)
    if layer in _CONVOLUTIONS:
        spatial = _CONVOLUTIONS[layer]
        filters = _int(ctx, call.args[0] if call.args else _kw(call, "filters"))
        return (*shape[: -spatial - 1], *(None,) * spatial, filters)
    if layer == "Flatten":
        known = [d for d in shape if d is not None]
        return (math.prod(known),) if len(known) == len(shape) else (None,)
    if layer.startswith(("GlobalAveragePooling", "GlobalMaxPooling")):
        return (shape[-1],) if shape else None
    if layer.startswith(("MaxPooling", "AveragePooling", "MaxPool", "AvgPool")) and shape:
        return (*(None,) * (len(shape) - 1), shape[-1])
    if layer == "Bidirectional" and call.args and isinstance(call.args[0], ast.Call):
        inner = _layer(ctx, call.args[0])
        if inner in _RECURRENT:
            found = _output(ctx, call.args[0], inner, shape)
            return (*found[:-1], None) if found else None
        return None
    if layer == "Embedding":
        dim = _int(ctx, call.args[1] if len(call.args) > 1 else _kw(call, "output_dim"))
        return (*shape, dim)
    if layer == "Reshape":
        target = call.args[0] if call.args else _kw(call, "target_shape")
        return _literal_shape(ctx, target)
    return None
