"""Training calls given a tf.data dataset or a Python generator (TFL813, TFL815-TFL817, TFL820).

A dataset carries its own targets, batches and length, so the array-only arguments of
fit/evaluate/predict either raise (validation_split, y) or are ignored (batch_size), and a
dataset that is never batched or runs out before steps_per_epoch breaks training.  The
receiver must be a Keras model and ``x`` a dataset by the semantic model (or what a generator
function of the module returns); what is known of the
dataset comes from :mod:`tflsp.analysis.fit_calls` (silent when unknown).
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.fit_calls import (
    FITTING,
    PARAMETERS,
    UNKNOWN_PIPELINE,
    Origin,
    TrainingCall,
    call_parts,
    int_constant,
    is_given,
    module_calls,
    origin_of,
    origins,
    pipeline,
    training_calls,
)
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v

_DATASET = "a tf.data.Dataset"
_GENERATOR = "a Python generator"


@detector("TFL813", "TFL815", "TFL816", "TFL817", "TFL820")
def training_datasets(ctx: BlockContext) -> None:
    for fit in training_calls(ctx):
        x = fit.arg("x")
        if x is None:
            continue
        info = pipeline(ctx, x)
        source = _DATASET
        if info is None:
            if not _is_generator(ctx, x):
                continue
            info, source = UNKNOWN_PIPELINE, _GENERATOR
        if fit.method in FITTING:
            _validation_split(ctx, fit, source)
            _steps_beyond_data(ctx, fit, info.size, info.repeated)
        _batch_size(ctx, fit, info.batched, source)
        _targets(ctx, fit, source)
        if info.batched is False:
            _unbatched(ctx, fit, x)


def _is_generator(ctx: BlockContext, x: ast.expr) -> bool:
    """``x`` surely holds a Python generator: a generator expression, or what calling a
    generator function of this module returns."""
    found = origin_of(ctx, x)
    if not found:
        return False
    model = ctx.model
    for term, block in found:
        if term.tag == "comp" and term.args[0] == "gen":
            continue
        parts = call_parts(term)
        if parts is None:
            return False
        values = model.value(parts[0], block)
        functions = [model.functions.get(f.local_id) for f in values if f.kind == v.FUNCTION]
        if not functions or len(functions) != len(values):
            return False
        if not all(f is not None and f.facts.generator for f in functions):
            return False
    return True


# -- TFL813 validation-split-on-dataset -----------------------------------------------------
def _validation_split(ctx: BlockContext, fit: TrainingCall, source: str) -> None:
    split = fit.arg("validation_split")
    if split is None or not is_given(ctx, split):
        return
    if isinstance(split, ast.Constant) and split.value in (0, 0.0):
        return  # the default: nothing is split
    node = fit.node_of("validation_split")
    ctx.report("TFL813", node or split, args={"source": source})


# -- TFL815 steps-per-epoch-exceeds-data ----------------------------------------------------
def _steps_beyond_data(
    ctx: BlockContext, fit: TrainingCall, batches: int | None, repeated: bool | None
) -> None:
    steps_node = fit.arg("steps_per_epoch")
    if steps_node is None or batches is None or repeated is not False:
        return
    steps = int_constant(ctx, steps_node)
    if steps is None or steps <= batches:
        return
    ctx.report(
        "TFL815",
        fit.node_of("steps_per_epoch") or steps_node,
        args={"steps": steps, "batches": batches},
    )


# -- TFL816 batch-size-with-dataset ---------------------------------------------------------
def _batch_size(ctx: BlockContext, fit: TrainingCall, batched: bool | None, source: str) -> None:
    if batched is False:
        return  # TFL820 says what is wrong with an unbatched dataset
    keyword = next((kw for kw in fit.call.keywords if kw.arg == "batch_size"), None)
    if keyword is None or not is_given(ctx, keyword.value):
        return  # positional batch_size: rare, and removing it would shift what follows
    fix = ctx.fix(_delete_keyword(ctx, fit.call, keyword), safe=True)
    ctx.report(
        "TFL816",
        keyword,
        args={
            "method": fit.method,
            "batch_size": ctx.source(keyword.value),
            "source": source,
        },
        fix=fix,
    )


def _delete_keyword(ctx: BlockContext, call: ast.Call, keyword: ast.keyword) -> Edit:
    """Remove ``keyword`` and one comma next to it."""
    items: list[ast.AST] = [*call.args, *call.keywords]
    items.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    position = items.index(keyword)
    line, col, end_line, end_col = ctx.node_range(keyword)
    if position > 0:
        _, _, line, col = ctx.node_range(items[position - 1])
    elif position + 1 < len(items):
        end_line, end_col, _, _ = ctx.node_range(items[position + 1])
    return Edit(line, col, end_line, end_col, "")


# -- TFL817 y-with-dataset ------------------------------------------------------------------
def _targets(ctx: BlockContext, fit: TrainingCall, source: str) -> None:
    if fit.method == "predict":
        return
    y = fit.arg("y")
    if not is_given(ctx, y) or y is None:
        return
    ctx.report("TFL817", fit.node_of("y") or y, args={"method": fit.method, "source": source})


# -- TFL820 unbatched-dataset-to-fit --------------------------------------------------------
_BATCH_METHODS = ("batch", "padded_batch", "ragged_batch")


def _unbatched(ctx: BlockContext, fit: TrainingCall, x: ast.expr) -> None:
    found = origin_of(ctx, x)
    if found is None:
        return
    for _, name, _ in _discarded_statements(ctx):
        if origin_of(ctx, name) == found:
            return  # this block reports the dropped batch() call itself
    ctx.report("TFL820", x, args={"name": ctx.source(x), "method": fit.method})


def _discarded_statements(ctx: BlockContext) -> list[tuple[ast.Call, ast.Name, str]]:
    """``name.batch(...)`` calls that are statements of their own (their result is lost)."""
    out = []
    for statement in ctx.index.nodes(ast.Expr):
        call = statement.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in _BATCH_METHODS
            and isinstance(call.func.value, ast.Name)
        ):
            out.append((call, call.func.value, call.func.attr))
    return out


def _training_method_on(ctx: BlockContext, found: frozenset[Origin]) -> str | None:
    model = ctx.model
    for method in PARAMETERS:
        for block, call in module_calls(model, method):
            x = call.args[0] if call.args else dict(call.kwargs).get("x")
            if x is None or x.tag == "star":
                continue
            given = origins(model, x, block)
            if given is not None and frozenset(given) == found:
                return method
    return None


@detector("TFL820")
def discarded_batch(ctx: BlockContext) -> None:
    """``ds.batch(32)`` as a statement of its own: the batched dataset is thrown away."""
    for call, name, batch in _discarded_statements(ctx):
        info = pipeline(ctx, name)
        if info is None or info.batched is not False:
            continue
        found = origin_of(ctx, name)
        method = _training_method_on(ctx, frozenset(found)) if found is not None else None
        if method is None:
            continue
        fix = ctx.fix(
            ctx.insert_at(*ctx.node_range(call)[:2], f"{name.id} = "),
            safe=False,
            name=name.id,
            call=batch,
        )
        ctx.report(
            "TFL820",
            call,
            message="discarded",
            args={"name": name.id, "call": batch, "method": method},
            fix=fix,
        )
