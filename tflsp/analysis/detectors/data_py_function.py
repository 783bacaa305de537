"""tf.data family: a tf.py_function result used without its shape (TFL208).

``tf.py_function``/``tf.numpy_function`` results have an unknown shape, not even a rank.  In a
function that ``Dataset.map()`` runs (the semantic model's graph map says why a function runs
as a graph), the result is followed through the function in source order: ``x.set_shape()``,
``tf.ensure_shape(x, ...)`` or ``tf.reshape(x, ...)`` give it a shape (not ``tf.reshape(x,
x.get_shape())``); a shape-dependent image op before that is reported there (in any graph); a ``return`` of it is reported when the module trains,
evaluates or predicts a Keras model (or a parameter: ``fit(dataset)`` is Keras') on a dataset
(a module fact), since a pipeline that only
iterates the values is fine, and so is a module that shapes values anywhere (a later map()
may restore the shape).  A name bound again some other way stops the walk (silent).
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import EAGER_WRAPPERS, BlockContext
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import detector, module_fact, watch
from tflsp.analysis.semantic import values as v

FACT = "data.keras_reads_dataset"
SHAPING = frozenset({"tensorflow.ensure_shape", "tensorflow.reshape"})
# Ops that need at least the rank of their input while the map function is traced.
SHAPE_OPS = frozenset(
    {
        "tensorflow.image.resize",
        "tensorflow.image.resize_with_pad",
        "tensorflow.image.resize_with_crop_or_pad",
        "tensorflow.image.central_crop",
        "tensorflow.image.crop_to_bounding_box",
        "tensorflow.image.pad_to_bounding_box",
    }
)
_KERAS_READS = ("fit", "evaluate", "predict")
_WRAPPER_NAMES = ("py_function", "numpy_function", "py_func")
# A returned result may get its shape in a later map() (``ds.map(parse).map(restore)``): the
# dataset flow does not follow elements, so any shaping call in the module keeps it silent.
_SHAPED_LATER = ("tensorflow.ensure_shape", "tensorflow.reshape", ".set_shape")
watch(*_SHAPED_LATER)


def _extract(index: NodeIndex) -> Hashable:
    terms = semantics_of(index).terms
    found = []
    for call in index.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _KERAS_READS):
            continue
        data = call.args[0] if call.args else None
        if data is None:
            data = next((k.value for k in call.keywords if k.arg == "x"), None)
        if data is not None:
            found.append((terms.expr(func.value), terms.expr(data)))
    return tuple(found) or None


def _combine(values: Sequence[Hashable], summary: object) -> Hashable:
    model = getattr(summary, "model", None)
    if model is None:
        return None
    for block, found in enumerate(values):
        for receiver, data in found if isinstance(found, tuple) else ():
            # ``fit(dataset)`` on a parameter is Keras' too, unless it is known to be other.
            held = model.value(receiver, block)
            keras = v.is_unknown(held) or v.all_of(
                held, lambda x: x.kind == v.INSTANCE and x.base == v.MODEL
            )
            if keras and v.all_of(model.value(data, block), lambda x: x.kind == v.DATASET):
                return True
    return None


module_fact(FACT, _extract, _combine, reads_values=True)


@detector("TFL208")
def py_function_unknown_shape(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # only wrappers called in functions are followed
    for call in calls_of(ctx, _WRAPPER_NAMES, ctx.summary.imports):  # may_call, for all calls
        if ctx.call_name(call) not in EAGER_WRAPPERS:
            continue
        fn = ctx.index.enclosing_function(call)
        info = ctx.graph_info(call)
        if fn is None or info is None:
            continue
        # Returned: only a function map() runs itself hands it to the dataset (one called
        # from it returns to code we do not follow); a shape op fails in any graph.
        mapped = info.kind == "dataset" and info.origin == ctx.function_id(fn)
        _follow(ctx, fn, call, mapped)


def _follow(ctx: BlockContext, fn: ast.AST, call: ast.Call, mapped: bool) -> None:
    function = ctx.source(call.func)
    parent = ctx.index.parent(call)
    returned = parent if not isinstance(parent, ast.Tuple) else ctx.index.parent(parent)
    if isinstance(returned, ast.Return) or (
        isinstance(fn, ast.Lambda) and fn.body in (call, parent)
    ):
        if mapped:
            _returned(ctx, call, function, "x")
        return
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return
    target = parent.targets[0]
    if isinstance(target, ast.Name):
        names = {target.id}
    elif isinstance(target, (ast.Tuple, ast.List)) and all(
        isinstance(t, ast.Name) for t in target.elts
    ):
        names = {t.id for t in target.elts}  # type: ignore[attr-defined]
    else:
        return
    start = (parent.end_lineno or parent.lineno, parent.end_col_offset or 0)
    uses = sorted(
        (
            node
            for node in ast.walk(fn)
            if isinstance(node, ast.Name)
            and node.id in names
            and (node.lineno, node.col_offset) > start
            and ctx.index.enclosing_function(node) is fn
        ),
        key=lambda node: _when(ctx, node),
    )
    for node in uses:
        if node.id not in names:
            continue
        if isinstance(node.ctx, ast.Store):
            if not _reshaped_by_itself(ctx, node):
                names.discard(node.id)  # bound again: what it holds now is another question
            continue
        use = ctx.index.parent(node)
        if isinstance(use, ast.Attribute) and use.attr == "set_shape":
            names.discard(node.id)
            continue
        if isinstance(use, ast.Call) and use.args and use.args[0] is node:
            name = ctx.call_name(use)
            if name in SHAPING and not _own_shape(use, node.id):
                names.discard(node.id)
                continue
            if name in SHAPE_OPS:
                op = ctx.source(use.func)
                ctx.report(
                    "TFL208",
                    use,
                    message="op",
                    args={"function": function, "op": op, "name": node.id},
                )
                return
        if _in_return(ctx, node):
            if mapped:
                _returned(ctx, call, function, node.id)
            return


def _own_shape(call: ast.Call, name: str) -> bool:
    """``tf.reshape(x, x.get_shape())`` / ``tf.reshape(x, tf.shape(x))``: still no shape."""
    return any(
        isinstance(node, ast.Name) and node.id == name
        for argument in call.args[1:] + [k.value for k in call.keywords]
        for node in ast.walk(argument)
    )


def _reshaped_by_itself(ctx: BlockContext, target: ast.Name) -> bool:
    """``x = tf.reshape(x, x.get_shape())``: the name still holds an unknown shape."""
    statement = ctx.index.parent(target)
    if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
        return False
    value = statement.value
    first = value.args[0] if value.args else None
    return (
        isinstance(first, ast.Name)
        and first.id == target.id
        and ctx.call_name(value) == "tensorflow.reshape"
        and _own_shape(value, target.id)
    )


def _when(ctx: BlockContext, node: ast.Name) -> tuple[int, int]:
    """Where a use happens; a binding happens once its whole statement has run."""
    if isinstance(node.ctx, ast.Store):
        statement = ctx.index.parent(node)
        while statement is not None and not isinstance(statement, ast.stmt):
            statement = ctx.index.parent(statement)
        if statement is not None:
            return (statement.end_lineno or node.lineno, statement.end_col_offset or 0)
    return (node.lineno, node.col_offset)


def _in_return(ctx: BlockContext, node: ast.AST) -> bool:
    """``return x`` or ``return x, y`` (the value itself, not something computed from it)."""
    parent = ctx.index.parent(node)
    if isinstance(parent, ast.Tuple):
        parent = ctx.index.parent(parent)
    return isinstance(parent, ast.Return)


def _returned(ctx: BlockContext, call: ast.Call, function: str, name: str) -> None:
    if ctx.summary.extra.get(FACT) is True and not any(
        ctx.summary.has(name) for name in _SHAPED_LATER
    ):
        ctx.report("TFL208", call, args={"function": function, "name": name})
