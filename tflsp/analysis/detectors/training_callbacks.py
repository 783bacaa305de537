"""TFL811 monitor-not-logged: EarlyStopping, ModelCheckpoint(save_best_only=True) or
ReduceLROnPlateau monitoring a name the training never logs.

The names fit() logs are ``loss`` and the compiled metrics, plus their ``val_`` twins when fit()
gets validation data.  Two cases are certain from the code:

- a ``val_*`` name while this fit() call has no validation_data/validation_split;
- any name not among the logged ones, when the model is a visible ``Sequential`` (one output:
  no per-output prefixes) compiled once with metrics given as known strings or named metrics.

Callbacks, the model and its compile() call are followed through the semantic model's terms;
anything else (a metric object without a name, a functional model) keeps the detector silent.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.fit_calls import (
    Origin,
    TrainingCall,
    call_parts,
    is_given,
    layer_calls,
    origin_of,
    origins,
    term_qualname,
    training_calls,
)
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import ModuleModel
from tflsp.analysis.semantic.terms import Term

# callback -> position of ``monitor`` among its positional parameters
_MONITORING = {
    "keras.callbacks.EarlyStopping": 0,
    "keras.callbacks.ReduceLROnPlateau": 0,
    "keras.callbacks.ModelCheckpoint": 1,
}
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
    for fit in training_calls(ctx):
        if fit.method != "fit" or not fit.complete:
            continue
        given = fit.arg("callbacks")
        if given is None:
            continue
        callbacks = _callbacks(ctx, given)
        if not callbacks:
            continue
        validation = _has_validation(ctx, fit)
        logged = _logged(ctx, fit, validation)
        for kind, monitor, term, block in callbacks:
            _check(ctx, fit, given, kind, monitor, (term, block), validation, logged)


def _callbacks(ctx: BlockContext, given: ast.expr) -> list[tuple[str, str, Term, int]]:
    """(callback class, monitored name, constructor term, block) of the monitoring ones."""
    model = ctx.model
    found = origin_of(ctx, given)
    if found is None or len(found) != 1 or found[0][0].tag not in ("list", "tuple"):
        return []
    listed, block = found[0]
    out: list[tuple[str, str, Term, int]] = []
    for item in listed.args[0]:
        made = origins(model, item, block)
        if made is None or len(made) != 1:
            continue
        term, k = made[0]
        parts = call_parts(term)
        if parts is None:
            continue
        func, args, kwargs = parts
        kind = term_qualname(model, func, k)
        if kind not in _MONITORING:
            continue
        if kind.endswith("ModelCheckpoint"):
            best = kwargs.get("save_best_only")
            if best is None and len(args) > _SAVE_BEST_POSITION:
                best = args[_SAVE_BEST_POSITION]
            if best is None or _constant(model, best, k) is not True:
                continue  # saves every epoch: the monitored name is not used
        position = _MONITORING[kind]
        if any(a.tag == "star" for a in args[: position + 1]):
            continue
        monitor_term = kwargs.get("monitor", args[position] if len(args) > position else None)
        monitor = "val_loss" if monitor_term is None else _constant(model, monitor_term, k)
        if isinstance(monitor, str):
            out.append((kind.rpartition(".")[2], monitor, term, k))
    return out


def _constant(model: ModuleModel, term: Term, block: int) -> object:
    found = v.constants(model.value(term, block))
    if found is None or len(found) != 1:
        return None
    return next(iter(found))


def _has_validation(ctx: BlockContext, fit: TrainingCall) -> bool | None:
    if is_given(ctx, fit.arg("validation_data")):
        return True
    split = fit.arg("validation_split")
    if split is None:
        return False
    if isinstance(split, ast.Constant):
        return split.value not in (0, 0.0, None)
    return None


def _logged(ctx: BlockContext, fit: TrainingCall, validation: bool | None) -> set[str] | None:
    """Every name this fit() call logs, when the code shows them all."""
    if validation is None:
        return None
    model = ctx.model
    receiver = origin_of(ctx, fit.receiver)
    if receiver is None or len(receiver) != 1 or layer_calls(model, *receiver[0]) is None:
        return None
    metrics = _compiled_metrics(model, receiver[0])
    if metrics is None:
        return None
    names = {"loss", *metrics}
    return names | {f"val_{n}" for n in names} if validation else names


def _compiled_metrics(model: ModuleModel, receiver: Origin) -> set[str] | None:
    found: set[str] | None = None
    compiled = 0
    for k, call in model.calls():
        func = call.func
        if func.tag != "attr" or func.args[1] != "compile":
            continue
        if origins(model, func.args[0], k) != [receiver]:
            continue
        model.evaluator.touch(k)
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
    fit: TrainingCall,
    given: ast.expr,
    kind: str,
    monitor: str,
    made: Origin,
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
    node = _report_node(ctx, fit, given, made)
    if close is not None:
        fix = None
        if isinstance(node, ast.keyword) and isinstance(node.value, ast.Constant):
            quote = ctx.source(node.value)[:1] if ctx.source(node.value)[:1] in "'\"" else '"'
            text = f"{quote}{close}{quote}"
            fix = ctx.fix(ctx.replace(node.value, text), safe=False, suggestion=close)
        ctx.report("TFL811", node, args={**args, "suggestion": close}, fix=fix)
    else:
        ctx.report("TFL811", node, message="unknown_name", args=args)


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


def _report_node(ctx: BlockContext, fit: TrainingCall, given: ast.expr, made: Origin) -> ast.AST:
    """The monitor argument when the callback is built in this block, else the fit() call's
    callbacks argument."""
    term, block = made
    if block == ctx.ordinal:
        terms = ctx.semantics.terms
        for call in ctx.index.nodes(ast.Call):
            if terms.expr(call) == term:
                keyword = next((kw for kw in call.keywords if kw.arg == "monitor"), None)
                return keyword or call
    return fit.node_of("callbacks") or given
