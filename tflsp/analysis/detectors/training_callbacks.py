"""TFL811 monitor-not-logged: EarlyStopping, ModelCheckpoint(save_best_only=True) or
ReduceLROnPlateau monitoring a name the training never logs.

The names fit() logs are ``loss`` and the compiled metrics, plus their ``val_`` twins when fit()
gets validation data.  Two cases are certain from the code:

- a ``val_*`` name while this fit() call has no validation_data/validation_split;
- any name not among the logged ones, when the model visibly has one output (a Sequential,
  an application, ``Model(inputs, one_tensor)``: no per-output prefixes) compiled once with
  metrics given as known strings or named metrics.

Callbacks, the model and its compile() call are followed through the semantic model's terms;
anything else (a metric object without a name, several outputs) keeps the detector silent.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.fit_calls import (
    PARAMETERS,
    Origin,
    call_parts,
    layer_calls,
    module_calls,
    origins,
    term_is_none,
    term_qualname,
)
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.block import CallSem
from tflsp.analysis.semantic.model import ModuleModel
from tflsp.analysis.semantic.terms import Term

# callback -> position of ``monitor`` among its positional parameters
_MONITORING = {
    "keras.callbacks.EarlyStopping": 0,
    "keras.callbacks.ReduceLROnPlateau": 0,
    "keras.callbacks.ModelCheckpoint": 1,
}
_CLASS_NAMES = frozenset(name.rpartition(".")[2] for name in _MONITORING)
_SAVE_BEST_POSITION = 3  # ModelCheckpoint(filepath, monitor, verbose, save_best_only, ...)
# Metric strings logged under their own spelling on Keras 3 and Keras 2 alike.
_STRING_METRICS = frozenset(
    {
        "accuracy",
        "acc",
        "mae",
        "mse",
        "mape",
        "msle",
        "binary_accuracy",
        "categorical_accuracy",
        "sparse_categorical_accuracy",
        "top_k_categorical_accuracy",
        "sparse_top_k_categorical_accuracy",
        "binary_crossentropy",
        "categorical_crossentropy",
        "sparse_categorical_crossentropy",
    }
)


@detector("TFL811")
def monitored_names(ctx: BlockContext) -> None:
    """From each monitoring callback built in this block to the fit() calls it is given to."""
    model = ctx.model
    terms = ctx.semantics.terms
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr not in _CLASS_NAMES:
            continue
        if (
            not isinstance(func, (ast.Name, ast.Attribute))
            or ctx.call_name(call) not in _MONITORING
        ):
            continue
        made = (terms.expr(call), ctx.ordinal)
        found = _monitoring(model, *made)
        if found is None:
            continue
        kind, monitor = found
        for k, fit in module_calls(model, "fit"):
            if made not in _callbacks_of(model, fit, k):
                continue
            validation = _has_validation(fit)
            logged = _logged(model, fit, k, validation)
            _check(ctx, call, kind, monitor, validation, logged)


def _monitoring(model: ModuleModel, term: Term, k: int) -> tuple[str, str] | None:
    """(callback class, monitored name) of a monitoring callback's constructor call."""
    parts = call_parts(term)
    if parts is None:
        return None
    func, args, kwargs = parts
    kind = term_qualname(model, func, k)
    if kind not in _MONITORING:
        return None
    if kind.endswith("ModelCheckpoint"):
        best = kwargs.get("save_best_only")
        if best is None and len(args) > _SAVE_BEST_POSITION:
            best = args[_SAVE_BEST_POSITION]
        if best is None or _constant(model, best, k) is not True:
            return None  # saves every epoch: the monitored name is not used
    position = _MONITORING[kind]
    if any(a.tag == "star" for a in args[: position + 1]):
        return None
    monitor_term = kwargs.get("monitor", args[position] if len(args) > position else None)
    monitor = "val_loss" if monitor_term is None else _constant(model, monitor_term, k)
    return (kind.rpartition(".")[2], monitor) if isinstance(monitor, str) else None


def _callbacks_of(model: ModuleModel, fit: CallSem, k: int) -> list[Origin]:
    given = _argument(fit, "callbacks")
    if given is None:
        return []
    # A receiver handed Keras callbacks is a Keras model unless the model says it is not.
    receiver = model.value(fit.func.args[0], k)
    if not v.is_unknown(receiver) and not v.all_of(
        receiver, lambda x: x.kind == v.INSTANCE and x.base == v.MODEL
    ):
        return []
    found = origins(model, given, k)
    if found is None or len(found) != 1 or found[0][0].tag not in ("list", "tuple"):
        return []
    listed, block = found[0]
    out: list[Origin] = []
    for item in listed.args[0]:
        made = origins(model, item, block)
        if made is not None:
            out.extend(made)
    return out


def _argument(fit: CallSem, name: str) -> Term | None:
    for key, value in fit.kwargs:
        if key == name:
            return value
    position = PARAMETERS["fit"].index(name)
    if position < len(fit.args) and not any(a.tag == "star" for a in fit.args[: position + 1]):
        return fit.args[position]
    return None


def _constant(model: ModuleModel, term: Term, block: int) -> object:
    found = v.constants(model.value(term, block))
    if found is None or len(found) != 1:
        return None
    return next(iter(found))


def _has_validation(fit: CallSem) -> bool | None:
    if any(key is None for key, _ in fit.kwargs) or any(a.tag == "star" for a in fit.args):
        return None  # **kwargs / *args may carry validation data
    data = _argument(fit, "validation_data")
    if data is not None and not term_is_none(data):
        return True
    split = _argument(fit, "validation_split")
    if split is None:
        return False
    if split.tag == "const":
        return split.args[0] not in (0, 0.0, None)
    return None


def _logged(model: ModuleModel, fit: CallSem, k: int, validation: bool | None) -> set[str] | None:
    """Every name this fit() call logs, when the code shows them all."""
    if validation is None:
        return None
    receiver = origins(model, fit.func.args[0], k)
    if receiver is None or len(receiver) != 1 or not _single_output(model, *receiver[0]):
        return None
    metrics = _compiled_metrics(model, receiver[0])
    if metrics is None:
        return None
    names = {"loss", *metrics}
    return names | {f"val_{n}" for n in names} if validation else names


def _single_output(model: ModuleModel, term: Term, block: int) -> bool:
    """A model with one output, whose metrics are logged under their own names: a Sequential,
    a keras.applications model, or Model(inputs, outputs) with one symbolic tensor out."""
    if layer_calls(model, term, block) is not None:
        return True
    parts = call_parts(term)
    if parts is None:
        return False
    func, args, kwargs = parts
    name = term_qualname(model, func, block)
    if name is None:
        return False
    if name.startswith("keras.applications."):
        return True
    if name not in ("keras.Model", "keras.models.Model"):
        return False
    outputs = kwargs.get("outputs", args[1] if len(args) > 1 else None)
    return outputs is not None and v.all_of(
        model.value(outputs, block), lambda x: x.kind == v.KERAS_TENSOR
    )


def _compiled_metrics(model: ModuleModel, receiver: Origin) -> set[str] | None:
    found: set[str] | None = None
    compiled = 0
    for k, call in module_calls(model, "compile"):
        if origins(model, call.func.args[0], k) != [receiver]:
            continue
        compiled += 1
        kwargs = dict(call.kwargs)
        if None in kwargs:
            return None
        metrics = kwargs.get("metrics", call.args[2] if len(call.args) > 2 else None)
        names = _metric_names(model, metrics, k)
        if names is None or (found is not None and names != found):
            return None
        found = names
    return found if compiled else None


def _metric_names(model: ModuleModel, term: Term | None, block: int) -> set[str] | None:
    if term is None:
        return set()
    found = origins(model, term, block)
    if found is None or len(found) != 1:
        return None
    term, block = found[0]
    if term.tag == "const" and term.args[0] is None:
        return set()
    if term.tag not in ("list", "tuple"):
        return None
    names: set[str] = set()
    for item in term.args[0]:
        made = origins(model, item, block)
        if made is None or len(made) != 1:
            return None
        item, k = made[0]
        if item.tag == "const" and isinstance(item.args[0], str):
            if item.args[0] not in _STRING_METRICS:
                return None
            names.add(item.args[0])
            continue
        parts = call_parts(item)
        named = parts[2].get("name") if parts is not None else None
        name = _constant(model, named, k) if named is not None else None
        if not isinstance(name, str):
            return None
        names.add(name)
    return names


def _check(
    ctx: BlockContext,
    call: ast.Call,
    kind: str,
    monitor: str,
    validation: bool | None,
    logged: set[str] | None,
) -> None:
    if logged is not None:
        if monitor in logged:
            return
        choices = sorted(logged)
    elif monitor.startswith("val_") and validation is False:
        choices = []
    else:
        return
    if choices:
        logged_text = ", ".join(f"'{n}'" for n in choices)
    else:
        logged_text = "names without the val_ prefix (this fit() gets no validation data)"
    close = _suggestion(monitor, set(choices), validation)
    args = {"callback": kind, "monitor": monitor, "logged": logged_text}
    node: ast.AST = next((kw for kw in call.keywords if kw.arg == "monitor"), call)
    if close is None:
        ctx.report("TFL811", node, message="unknown_name", args=args)
        return
    fix = None
    if isinstance(node, ast.keyword) and isinstance(node.value, ast.Constant):
        quote = ctx.source(node.value)[:1] if ctx.source(node.value)[:1] in "'\"" else '"'
        text = f"{quote}{close}{quote}"
        fix = ctx.fix(ctx.replace(node.value, text), safe=False, suggestion=close)
    ctx.report("TFL811", node, args={**args, "suggestion": close}, fix=fix)


_ALIASES = {"acc": "accuracy", "accuracy": "acc"}


def _suggestion(monitor: str, logged: set[str], validation: bool | None) -> str | None:
    """The logged name the author surely meant: 'acc' spelled 'accuracy' (or back), or the
    name without 'val_' when there is no validation data."""
    prefix = "val_" if monitor.startswith("val_") else ""
    base = monitor[len(prefix) :]
    alias = prefix + _ALIASES.get(base, base)
    if alias != monitor and alias in logged:
        return alias
    if prefix and validation is False and (base in logged or base == "loss"):
        return base
    return None
