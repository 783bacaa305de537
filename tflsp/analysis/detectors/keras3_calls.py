"""TFL608 and TFL611: arguments Keras 3 refuses or binds to another parameter.

Both look at calls of Keras's own callables, found through the semantic model: a Keras name
(``keras.callbacks.ModelCheckpoint``, ``tf.keras.layers.Dense``), a method of a Keras object
(``model.fit``; not when this module's class overrides it), or ``super().__init__`` in a class
derived from a Keras class (TFL611 only).  The facts are the API data's Keras 3 and tf-keras
signatures:

- TFL608: a keyword Keras 3's callable does not take.  Certain only when the callable has no
  ``**kwargs``, or when ``**kwargs`` ends in the layer or optimizer constructor, which refuses
  names it does not know (``keras3_constructor_kwargs`` lists the ones constructors still read
  from ``**kwargs``).  ``lr=`` on optimizers is TFL602's.
- TFL611: a positional argument whose position names another parameter in Keras 3 than in
  tf-keras (``compile(optimizer, loss, metrics)``: the third is ``loss_weights`` now).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache, lru_cache

from tflsp.analysis import apidata
from tflsp.analysis.apidata import Signature
from tflsp.analysis.block_names import calls_of, keyword_calls
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.keras3_support import (
    data_class,
    data_spellings,
    flavor_for,
    keras_root,
    local_class_bases,
    raw_name,
    receiver,
)
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.registry import detector

# Keras 1 keyword -> the Keras 2/3 name it became (Keras 2.0 converted them automatically).
# No API data can list them: tf-keras 2.21 rejects them too.  The data's own ``renamed`` pairs
# are matched by position and default (save(save_format=) -> zipped=), so they are no fix.
KERAS1_NAMES = {
    "nb_epoch": "epochs",
    "init": "kernel_initializer",
    "output_dim": "units",
    "input": "inputs",
    "output": "outputs",
    "border_mode": "padding",
    "nb_filter": "filters",
    "subsample": "strides",
    "dim_ordering": "data_format",
    "W_regularizer": "kernel_regularizer",
    "b_regularizer": "bias_regularizer",
    "W_constraint": "kernel_constraint",
    "b_constraint": "bias_constraint",
    "inner_init": "recurrent_initializer",
    "inner_activation": "recurrent_activation",
    "U_regularizer": "recurrent_regularizer",
    "dropout_W": "dropout",
    "dropout_U": "recurrent_dropout",
}
_MULTIPROCESSING = frozenset({"workers", "use_multiprocessing", "max_queue_size"})
# keras.Model(...) runs the functional constructor, which its opaque signature hides.
_FUNCTIONAL = frozenset({"inputs", "outputs", "name", "trainable"})
_LAYER = "keras.Layer"
_OPTIMIZER = "keras.Optimizer"


@dataclass(frozen=True, slots=True)
class Callee:
    """A Keras callable as the API data names it, in Keras 3 and in tf-keras."""

    keras3: str  # name under the ``keras3``/``tensorflow`` flavour
    flavor: str  # flavour of ``keras3``
    tf_keras: str | None  # the same callable's tf-keras spelling, when tf-keras has it
    display: str  # how messages name it
    constructor: bool


def callee(ctx: BlockContext, call: ast.Call, *, super_calls: bool = False) -> Callee | None:
    func = call.func
    name = raw_name(ctx, func)
    if name is not None:
        root = keras_root(name)
        if root is None or root[0] in ("tensorflow.python.keras", "tf_keras"):
            return None
        flavor = flavor_for(name, 3)
        kind = apidata.kind(name, flavor)
        if kind not in ("class", "function"):
            return None
        k2 = "keras" + name[len(root[0]) :]
        # ``tf.keras.X`` under Keras 3 is Keras 3's own object: ask about its keras.* name.
        canon = apidata.canonical(name, flavor) or name
        if canon.startswith("keras."):
            name, flavor = canon, "keras3"
        return Callee(name, flavor, _tf_keras_name(k2), _display(k2), kind == "class")
    if not isinstance(func, ast.Attribute):
        return None
    if super_calls and func.attr == "__init__":
        return _super_init(ctx, func)
    found = receiver(ctx, func.value, func.attr)
    if found is None or found.defines or not found.classes:
        return None
    cls = found.classes[0]
    spelled = data_class(cls, "keras3")
    if spelled is None or apidata.kind(f"{spelled}.{func.attr}", "keras3") != "function":
        return None
    method = f"{spelled}.{func.attr}"
    k2_class = data_class(cls, "tf_keras")
    k2_method = _tf_keras_name(f"{k2_class}.{func.attr}") if k2_class else None
    return Callee(method, "keras3", k2_method, f"{_display(cls)}.{func.attr}", False)


def _super_init(ctx: BlockContext, func: ast.Attribute) -> Callee | None:
    """``super().__init__`` in a class derived from a Keras class: that class's constructor."""
    inner = func.value
    if not (
        isinstance(inner, ast.Call)
        and isinstance(inner.func, ast.Name)
        and inner.func.id == "super"
        and not inner.args
    ):
        return None
    cls = ctx.index.enclosing_class(func)
    if cls is None:
        return None
    gid = ctx.class_id(cls)
    # super() reaches the first __init__ after this class: one of this module's classes
    # (decorated or not) is the user's own signature, not Keras's.
    if any(_own_init(ctx, base) for base in ctx.model.mro(gid) if base != gid):
        return None
    bases, _ = local_class_bases(ctx, gid, "__init__")
    if len(bases) != 1:
        return None
    spelled = data_class(bases[0], "keras3")
    if spelled is None:
        return None
    k2 = data_class(bases[0], "tf_keras")
    return Callee(spelled, "keras3", k2, f"{_display(bases[0])}.__init__", True)


def _own_init(ctx: BlockContext, class_gid: str) -> bool:
    entry = ctx.model.classes.get(class_gid)
    return entry is not None and (
        "__init__" in entry.facts.methods
        or any(name == "__init__" for name, _ in entry.facts.class_attributes)
    )


def _tf_keras_name(name: str) -> str | None:
    for spelling in data_spellings(name):
        if apidata.kind(spelling, "tf_keras") in ("class", "function"):
            return spelling
    return None


def _display(name: str) -> str:
    return "tf." + name[len("tensorflow.") :] if name.startswith("tensorflow.") else name


# -- TFL608 ------------------------------------------------------------------------------------
@detector("TFL608")
def keras3_removed_arguments(ctx: BlockContext) -> None:
    if ctx.keras_version != 3:
        return
    for call in keyword_calls(ctx):
        target = callee(ctx, call)
        if target is None:
            continue
        signature = apidata.signature(target.keras3, target.flavor)
        if signature is None:
            continue
        accepted = _accepted(target, signature)
        if accepted is None:
            continue
        for kw in call.keywords:
            if kw.arg is None or kw.arg in accepted:
                continue
            if kw.arg == "lr" and _is_optimizer(target):
                continue  # TFL602
            _report_keyword(ctx, call, kw, target, signature)


@lru_cache(maxsize=1024)  # the same few Keras callables over and over, from the API data only
def _accepted(target: Callee, signature: Signature) -> frozenset[str] | None:
    """Every keyword Keras 3's callable takes; None when an unknown ``**kwargs`` may take more."""
    names = set(signature.names())
    if not signature.var_keyword:
        return frozenset(names)
    if not target.constructor:
        return None
    cls = target.keras3
    flavor = target.flavor
    layer = apidata.is_subclass(cls, _LAYER, flavor)
    optimizer = apidata.is_subclass(cls, _OPTIMIZER, flavor)
    if not (layer or optimizer):
        return None
    for base in apidata.bases(cls, flavor):
        base_signature = apidata.signature(base, "keras3")
        if base_signature is not None:
            names.update(base_signature.names())
    names.update(apidata.keras3_constructor_kwargs(cls))
    if apidata.canonical(cls, flavor) == "keras.Model":
        names.update(_FUNCTIONAL)
    return frozenset(names)


def _is_optimizer(target: Callee) -> bool:
    return bool(
        target.constructor and apidata.is_subclass(target.keras3, _OPTIMIZER, target.flavor)
    )


def _report_keyword(
    ctx: BlockContext, call: ast.Call, kw: ast.keyword, target: Callee, signature: Signature
) -> None:
    keyword = kw.arg or ""
    error = (
        "ValueError (Unrecognized keyword arguments)"
        if signature.var_keyword
        else "TypeError (unexpected keyword argument)"
    )
    args = {"api": target.display, "keyword": keyword, "error": error, "new": ""}
    variant = "default"
    fix: Fix | None = None
    new = KERAS1_NAMES.get(keyword)
    if new is not None and new in (_accepted(target, signature) or signature.names()):
        variant = "keras1"
        args["new"] = new
        if ctx.keyword(call, new) is None:
            line, col, _, _ = ctx.node_range(kw)
            fix = ctx.fix(Edit(line, col, line, col + len(keyword), new), safe=True, new=new)
    elif keyword in _MULTIPROCESSING:
        variant = "multiprocessing"
    elif keyword == "period":
        variant = "period"
    elif keyword == "batch_input_shape":
        variant = "batch_input_shape"
    ctx.report("TFL608", kw, message=variant, args=args, fix=fix)


# -- TFL611 ------------------------------------------------------------------------------------
@cache
def _moved_names() -> frozenset[str]:
    """Last names of the callables whose positional parameters moved (a cheap filter)."""
    out = {"__init__"}
    for name in apidata.keras3_changed_callables():
        changes = apidata.keras3_param_changes(name)
        if changes is not None and changes.moved:
            out.add(name.rpartition(".")[2])
    return frozenset(out)


@detector("TFL611")
def keras3_moved_positional_arguments(ctx: BlockContext) -> None:
    if ctx.keras_version != 3:
        return
    names = _moved_names()
    for call in calls_of(ctx, names, names):
        if not call.args or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        target = callee(ctx, call, super_calls=True)
        if target is None or target.tf_keras is None or _passes_self(ctx, call):
            continue
        changes = apidata.keras3_param_changes(target.tf_keras)
        old_sig = apidata.signature(target.tf_keras, "tf_keras")
        new_sig = apidata.signature(target.keras3, target.flavor)
        if changes is None or not changes.moved or old_sig is None or new_sig is None:
            continue
        old = old_sig.positional()
        for i, arg in enumerate(call.args):
            if i >= len(old):
                break
            move = changes.moved.get(old[i])
            if move is None or move[0] != i:
                continue
            # Keras 3 takes it by keyword only: a positional value goes to ``*args`` when there
            # is one, whose meaning the data does not give; a string there is surely wrong.
            if move[1] is None and new_sig.var_positional and ctx.string(arg) is None:
                break
            new = new_sig.positional()
            now = new[i] if move[1] is not None and i < len(new) else None
            _report_moved(ctx, call, i, arg, target, old, now)
            break


def _passes_self(ctx: BlockContext, call: ast.Call) -> bool:
    """``super().__init__(self)``: the instance passed again is TFL308's."""
    fn = ctx.index.enclosing_function(call)
    first = call.args[0]
    return (
        isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        and bool(fn.args.args)
        and isinstance(first, ast.Name)
        and first.id == fn.args.args[0].arg
    )


def _report_moved(
    ctx: BlockContext,
    call: ast.Call,
    i: int,
    arg: ast.expr,
    target: Callee,
    old: tuple[str, ...],
    now: str | None,
) -> None:
    value = ctx.source(arg)
    args = {
        "api": target.display,
        "position": str(i + 1),
        "old": old[i],
        "new": now or "",
        "value": value,
    }
    variant = "default" if now else "keyword_only"
    ctx.report("TFL611", arg, message=variant, args=args, fix=_keyword_fix(ctx, call, i, old))


def _keyword_fix(ctx: BlockContext, call: ast.Call, start: int, old: tuple[str, ...]) -> Fix | None:
    """Positional arguments from ``start`` on become keywords with their Keras 2 names."""
    if len(call.args) > len(old):
        return None
    taken = {kw.arg for kw in call.keywords}
    edits = []
    for j in range(start, len(call.args)):
        if old[j] in taken:
            return None
        line, col, _, _ = ctx.node_range(call.args[j])
        edits.append(Edit(line, col, line, col, f"{old[j]}="))
    return ctx.fix(*edits, safe=True, old=old[start])
