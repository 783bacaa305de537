"""Practice family (TFL704): ``log()`` of a softmax or sigmoid output.

A probability that underflows to 0 makes ``log`` return -inf, and ``0 * -inf`` in a
hand-written cross-entropy is NaN, in the loss and in every gradient.  The fused functions
(``log_softmax``, ``log_sigmoid``) compute the same values without the underflow.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic.model import qualname_of

LOGS = frozenset(
    {
        "tensorflow.math.log",
        "tensorflow.experimental.numpy.log",
        "keras.ops.log",
        "keras.backend.log",
    }
)
_LOG_NAMES = frozenset({"log"})
# Squashing function -> the fused log version, as (namespace to keep, new function name).
SQUASHERS = {
    "tensorflow.nn.softmax": ("tensorflow", "nn.log_softmax"),
    "tensorflow.math.softmax": ("tensorflow", "nn.log_softmax"),
    "keras.ops.softmax": ("keras.ops", "log_softmax"),
    "keras.activations.softmax": ("keras.ops", "log_softmax"),
    "tensorflow.nn.sigmoid": ("tensorflow", "math.log_sigmoid"),
    "tensorflow.sigmoid": ("tensorflow", "math.log_sigmoid"),
    "tensorflow.math.sigmoid": ("tensorflow", "math.log_sigmoid"),
    "keras.ops.sigmoid": ("keras.ops", "log_sigmoid"),
    "keras.activations.sigmoid": ("keras.ops", "log_sigmoid"),
}


def _squasher(ctx: BlockContext, expr: ast.expr) -> tuple[str, ast.Call | None] | None:
    """The squashing function ``expr`` comes from, and the call when it is written inline."""
    if isinstance(expr, ast.Call):
        name = ctx.resolve(expr.func)
        return (name, expr) if name in SQUASHERS else None
    if isinstance(expr, ast.Name):
        # What reaches the name: calls of one squashing function (the term keeps the call).
        term = ctx.semantics.terms.expr(expr)
        calls = term.args if term.tag == "union" else (term,)
        names = {
            qualname_of(ctx.model.value(t.args[0], ctx.ordinal)) if t.tag == "call" else None
            for t in calls
        }
        if len(names) == 1:
            (name,) = names
            if name in SQUASHERS:
                return name, None
    return None


def _fused_fix(ctx: BlockContext, call: ast.Call, inner: ast.Call, squasher: str) -> Fix | None:
    """``tf.math.log(tf.nn.softmax(x, axis=-1))`` -> ``tf.nn.log_softmax(x, axis=-1)``."""
    namespace, function = SQUASHERS[squasher]
    if namespace == "keras.ops" and ctx.keras_version != 3:
        return None  # tf-keras has no keras.ops
    prefix = ctx.alias_for(namespace)
    if prefix is None and namespace == "keras.ops":
        keras = ctx.alias_for("keras")
        prefix = f"{keras}.ops" if keras else None
    if prefix is None:
        return None
    arguments = [ctx.source(a) for a in inner.args]
    arguments += [f"{kw.arg}={ctx.source(kw.value)}" for kw in inner.keywords if kw.arg]
    if len(arguments) != len(inner.args) + len(inner.keywords):
        return None  # ``**kwargs``: keep the user's spelling
    new = f"{prefix}.{function}({', '.join(arguments)})"
    return ctx.fix(ctx.replace(call, new), safe=False, new=f"{prefix}.{function}")


@detector("TFL704")
def log_of_probabilities(ctx: BlockContext) -> None:
    for call in calls_of(ctx, _LOG_NAMES, _LOG_NAMES):
        func = call.func
        if len(call.args) != 1 or call.keywords:
            continue
        if ctx.resolve(func) not in LOGS:
            continue
        found = _squasher(ctx, call.args[0])
        if found is None:
            continue
        squasher, inner = found
        fix = _fused_fix(ctx, call, inner, squasher) if inner is not None else None
        namespace, function = SQUASHERS[squasher]
        short = "tf" if namespace == "tensorflow" else namespace
        ctx.report(
            "TFL704",
            call,
            message="sigmoid" if "sigmoid" in squasher else "default",
            args={"call": ctx.source(func), "fused": f"{short}.{function}"},
            fix=fix,
        )
