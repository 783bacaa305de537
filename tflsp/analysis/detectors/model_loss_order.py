"""Model family, custom losses that read Keras's (y_true, y_pred) the other way (TFL810).

Two shapes, both named by the code itself:

- a function given to ``compile(loss=...)``/``metrics=[...]`` (or the ``call`` of a
  ``keras.losses.Loss`` subclass, ``update_state`` of a ``Metric`` subclass) whose first two
  parameters are named predictions-then-labels: Keras passes the labels first;
- inside a loss that names them right, a call of an asymmetric library loss with the two
  parameters swapped (``binary_crossentropy(y_pred, y_true)``).

Symmetric library losses (mean squared/absolute error, Huber, log-cosh) are not judged: the
order does not change them.
"""

from __future__ import annotations

import ast

from tflsp.analysis import model_setup as ms
from tflsp.analysis.context import BlockContext
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v

# Parameter names, lower-cased without underscores (``y_pred``, ``yPred``).
PREDICTIONS = frozenset(
    {
        "ypred",
        "ypreds",
        "ypredicted",
        "yhat",
        "pred",
        "preds",
        "prediction",
        "predictions",
        "logits",
        "output",
        "outputs",
    }
)
LABELS = frozenset(
    {"ytrue", "ylabel", "ylabels", "true", "target", "targets", "label", "labels", "groundtruth"}
)
# Library losses and metrics whose value changes when the two arguments are swapped.
ASYMMETRIC = frozenset(
    {
        "binary_crossentropy",
        "categorical_crossentropy",
        "sparse_categorical_crossentropy",
        "binary_focal_crossentropy",
        "categorical_focal_crossentropy",
        "kl_divergence",
        "kld",
        "kullback_leibler_divergence",
        "poisson",
        "hinge",
        "squared_hinge",
        "categorical_hinge",
        "mean_absolute_percentage_error",
        "mape",
        "mean_squared_logarithmic_error",
        "msle",
        "binary_accuracy",
        "categorical_accuracy",
        "sparse_categorical_accuracy",
    }
)
_LIBRARY = ("keras.losses.", "keras.metrics.", "keras.backend.")
_METHODS = {v.LOSS: "call", v.METRIC: "update_state"}


@detector("TFL810")
def check_loss_order(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # only the parameters of functions are looked at
    used: frozenset[str] | None = None
    for fn in ctx.index.functions():
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = fn.args.posonlyargs + fn.args.args
        owner = ctx.method_owner(fn)
        if owner is not None:
            params = params[1:]
        if len(params) < 2:
            continue
        first, second = params[0], params[1]
        roles = (_role(first.arg), _role(second.arg))
        if roles[0] in LABELS and roles[1] in PREDICTIONS:
            _swapped_calls(ctx, fn, first.arg, second.arg)
            continue
        if roles[0] not in PREDICTIONS or roles[1] not in LABELS:
            continue
        if owner is not None:
            # Keras calls ``Loss.call`` and ``Metric.update_state`` itself.
            base = ctx.model.class_base(ctx.class_id(owner))
            by_keras = fn.name == _METHODS.get(base, "")
        else:
            if used is None:
                used = _losses_in_use(ctx)
            by_keras = ctx.function_id(fn) in used
        if not by_keras:
            continue
        fix = ctx.fix(
            ctx.replace(first, ctx.source(second)),
            ctx.replace(second, ctx.source(first)),
            safe=False,
        )
        ctx.report(
            "TFL810",
            first,
            end=second,
            args={
                "function": f"{owner.name}.{fn.name}" if owner is not None else fn.name,
                "first": first.arg,
                "second": second.arg,
            },
            fix=fix,
        )


def _role(name: str) -> str:
    return name.lower().replace("_", "")


def _losses_in_use(ctx: BlockContext) -> frozenset[str]:
    """Ids of this module's functions given to compile() as a loss or a metric."""
    model = ctx.model
    found: set[str] = set()
    for k, site in ms.compile_sites(ctx.summary):
        for term in (site.arg, site.data):
            if term is None:
                continue
            parts = term.args[0] if term.tag in ("list", "tuple") else (term,)
            for part in parts:
                for value in model.value(part, k):
                    if value.kind == v.FUNCTION and value.is_local:
                        found.add(value.local_id)
    return frozenset(found)


def _swapped_calls(
    ctx: BlockContext, fn: ast.FunctionDef | ast.AsyncFunctionDef, true: str, pred: str
) -> None:
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        a, b = node.args[0], node.args[1]
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)):
            continue
        if (a.id, b.id) != (pred, true) or ctx.index.enclosing_function(node) is not fn:
            continue
        if not _is_parameter(ctx, a) or not _is_parameter(ctx, b):
            continue
        name = ctx.call_name(node)
        if name is None or not name.startswith(_LIBRARY):
            continue
        if name.rpartition(".")[2] not in ASYMMETRIC:
            continue
        fix = ctx.fix(ctx.replace(a, b.id), ctx.replace(b, a.id), safe=False)
        ctx.report(
            "TFL810",
            node,
            message="call",
            args={"callee": ctx.source(node.func), "pred": pred, "true": true, "function": fn.name},
            fix=fix,
        )


def _is_parameter(ctx: BlockContext, name: ast.Name) -> bool:
    """The name still holds the parameter (not reassigned before the call)."""
    reach = ctx.reaching(name)
    return reach is not None and len(reach.defs) == 1 and isinstance(reach.defs[0], ast.arg)
