"""Training calls and what they are given: the view group B's detectors (TFL811-TFL820) share.

- :func:`training_calls`: the block's ``fit``/``evaluate``/``predict`` calls on a value the
  semantic model knows is a Keras model (or an unknown object this block compiles with a loss
  or optimizer), and KerasTuner ``search`` calls, with their arguments by name (positional
  ones too);
- :func:`origins`: what an expression was built from, following module names across blocks
  (each module-level statement is its own block) through the semantic model's terms;
- :func:`pipeline`: what is known about a tf.data dataset there: batched or not, an upper
  bound on its number of elements, repeated or not.

Everything answers "unknown" (None) when the code does not show it, so detectors stay silent.
Reading another block's binding goes through :meth:`ModuleModel.entry` first, which records
the dependency: the engine re-checks this block when that binding changes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.api import KERAS_DATASET_UTILITIES
from tflsp.analysis.semantic.block import CallSem
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

# Positional parameters, in order (Keras 3.15 and tf-keras 2.21 agree on these prefixes).
PARAMETERS: dict[str, tuple[str, ...]] = {
    "fit": (
        "x",
        "y",
        "batch_size",
        "epochs",
        "verbose",
        "callbacks",
        "validation_split",
        "validation_data",
        "shuffle",
        "class_weight",
        "sample_weight",
        "initial_epoch",
        "steps_per_epoch",
        "validation_steps",
    ),
    "evaluate": ("x", "y", "batch_size", "verbose", "sample_weight", "steps", "callbacks"),
    "predict": ("x", "batch_size", "verbose", "steps", "callbacks"),
}
# KerasTuner's ``tuner.search(...)`` hands its arguments to ``model.fit`` as they are.
PARAMETERS["search"] = PARAMETERS["fit"]
FITTING = frozenset({"fit", "search"})
# The other calls on a model whose arguments are read (:mod:`tflsp.analysis.model_setup`).
_SET_UP: dict[str, tuple[str, ...]] = {
    "compile": ("optimizer", "loss", "metrics"),
    "add": ("layer",),
}


def argument(call: ast.Call, method: str, name: str) -> ast.expr | None:
    """The expression a ``model.<method>(...)`` call gives for parameter ``name``, by keyword
    or position (a position after a ``*args`` is not known)."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    names = PARAMETERS.get(method) or _SET_UP[method]
    if name in names:
        position = names.index(name)
        positional = call.args
        if position < len(positional) and not any(
            isinstance(a, ast.Starred) for a in positional[: position + 1]
        ):
            return positional[position]
    return None


@dataclass(frozen=True, slots=True)
class TrainingCall:
    call: ast.Call
    method: str  # fit | evaluate | predict | search (KerasTuner)
    receiver: ast.expr
    complete: bool  # no *args / **kwargs: an absent argument is really absent

    def arg(self, name: str) -> ast.expr | None:
        """The expression given for parameter ``name`` (by keyword or position)."""
        return argument(self.call, self.method, name)

    def node_of(self, name: str) -> ast.AST | None:
        """Where to report on an argument: its keyword (name included) or the value."""
        for kw in self.call.keywords:
            if kw.arg == name:
                return kw
        return self.arg(name)


def training_calls(ctx: BlockContext) -> list[TrainingCall]:
    memo: list[TrainingCall] | None = ctx.memo.get("fit_calls.training")
    if memo is not None:
        return memo
    found: list[TrainingCall] = []
    for call in calls_of(ctx, methods=PARAMETERS):
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        if func.attr == "search":
            if not _is_tuner(ctx, func.value):
                continue
        elif not ctx.is_instance_of(func.value, "model") and not _compiled_here(ctx, func.value):
            continue
        complete = not any(isinstance(a, ast.Starred) for a in call.args) and all(
            kw.arg is not None for kw in call.keywords
        )
        found.append(TrainingCall(call, func.attr, func.value, complete))
    ctx.memo["fit_calls.training"] = found
    return found


def _is_tuner(ctx: BlockContext, receiver: ast.expr) -> bool:
    built = built_by(ctx.model, ctx.semantics.terms.expr(receiver), ctx.ordinal)
    if built is None:
        return False
    name = term_qualname(ctx.model, built[0], built[3])
    return name is not None and name.startswith("keras_tuner.")


def _compiled_here(ctx: BlockContext, receiver: ast.expr) -> bool:
    """An object the model cannot name (a parameter, a helper's result) that this block compiles
    with a loss or an optimizer: Keras's ``compile`` is what makes it a model here."""
    if not v.is_unknown(ctx.value(receiver)):
        return False
    compiled: set[Term] | None = ctx.memo.get("fit_calls.compiled")
    if compiled is None:
        terms = ctx.semantics.terms
        compiled = ctx.memo["fit_calls.compiled"] = {
            terms.expr(call.func.value)
            for call in calls_of(ctx, methods=("compile",))
            if isinstance(call.func, ast.Attribute)
            and any(kw.arg in ("loss", "optimizer") for kw in call.keywords)
        }
    term = ctx.semantics.terms.expr(receiver)
    return term.tag != "unknown" and term in compiled


def is_given(ctx: BlockContext, expr: ast.expr | None) -> bool:
    """An argument is given and is not a literal None (``y=None`` is the default)."""
    if expr is None:
        return False
    return not (isinstance(expr, ast.Constant) and expr.value is None)


def int_constant(ctx: BlockContext, expr: ast.AST) -> int | None:
    found = v.constants(ctx.value(expr))
    if found is None or len(found) != 1:
        return None
    (value,) = found
    return value if type(value) is int else None


# -- origins: what a term was built from ----------------------------------------------------
Origin = tuple[Term, int]  # a term that is not a module name, and the block it belongs to
_MAX_DEPTH = 24


def origins(model: ModuleModel, term: Term, block: int, depth: int = 0) -> list[Origin] | None:
    """The terms ``term`` may come from, module names followed to their bindings; None when a
    binding is out of sight (a parameter, a name nothing binds, too deep)."""
    if depth > _MAX_DEPTH:
        return None
    if term.tag == "union":
        out: list[Origin] = []
        for part in term.args:
            found = origins(model, part, block, depth + 1)
            if found is None:
                return None
            out.extend(found)
        return out
    if term.tag == "entry":
        return _entry_origins(model, term.args[0], block, depth)
    if term.tag == "global":
        return _global_origins(model, term.args[0], block, depth)
    if term.tag in ("unknown", "cycle", "param", "nothing", "self"):
        return None
    return [(term, block)]


def _entry_origins(model: ModuleModel, name: str, block: int, depth: int) -> list[Origin] | None:
    model.entry(block, name)  # records that this answer depends on the name's bindings
    binding = model.binding_before(name, block)
    if binding is None or name in model.global_writers:
        return None
    k, term, definite = binding
    found = origins(model, term, k, depth + 1)
    if found is None or definite:
        return found
    earlier = _entry_origins(model, name, k, depth + 1)
    return None if earlier is None else found + earlier


def _global_origins(model: ModuleModel, name: str, block: int, depth: int) -> list[Origin] | None:
    """A module name read by a function: followed when the module binds it once only (the
    function may run before or after any other binding)."""
    model.global_value(block, name)  # records the dependency
    binding = model.only_binding(name)
    if binding is None:
        return None
    k, term = binding
    return origins(model, term, k, depth + 1)


def origin_of(ctx: BlockContext, expr: ast.AST) -> list[Origin] | None:
    return origins(ctx.model, ctx.semantics.terms.expr(expr), ctx.ordinal)


def single_origin(model: ModuleModel, term: Term, block: int, depth: int = 0) -> Origin | None:
    """The one term ``term`` surely comes from (None: several, or out of sight)."""
    found = origins(model, term, block, depth)
    return found[0] if found is not None and len(found) == 1 else None


Built = tuple[Term, tuple[Term, ...], dict[str, Term], int]  # function, args, kwargs, block


def built_by(model: ModuleModel, term: Term, block: int, depth: int = 0) -> Built | None:
    """The one call ``term`` surely comes from, split up (see :func:`call_parts`), and the
    block it is in; None when it may come from elsewhere or from something else."""
    found = single_origin(model, term, block, depth)
    parts = call_parts(found[0]) if found is not None else None
    return None if parts is None or found is None else (*parts, found[1])


def module_calls(model: ModuleModel, method: str) -> Iterator[tuple[int, CallSem]]:
    """The module's ``<receiver>.method(...)`` calls, every block's (each block looked at is
    recorded as read: a call added or changed there re-checks the asking block)."""
    touched: set[int] = set()
    for k, call in model.calls():
        if k not in touched:
            touched.add(k)
            model.evaluator.touch(k)
        if call.func.tag == "attr" and call.func.args[1] == method:
            yield k, call


def call_parts(term: Term) -> tuple[Term, tuple[Term, ...], dict[str, Term]] | None:
    """``call(func, args, kwargs)`` split up (None for another term or ``**kwargs``)."""
    if term.tag != "call":
        return None
    func, args, kwargs = term.args
    named: dict[str, Term] = {}
    for key, value in kwargs:
        if key is None:
            return None
        named[key] = value
    return func, args, named


def term_qualname(model: ModuleModel, term: Term, block: int) -> str | None:
    return qualname_of(model.value(term, block))


def term_int(model: ModuleModel, term: Term, block: int) -> int | None:
    found = v.constants(model.value(term, block))
    if found is None or len(found) != 1:
        return None
    (value,) = found
    return value if type(value) is int else None


def term_is_none(term: Term) -> bool:
    return term.tag == "const" and term.args[0] is None


# -- datasets -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pipeline:
    batched: bool | None  # None: cannot tell
    size: int | None  # upper bound on the number of elements (batches once batched)
    repeated: bool | None  # repeat() without a count somewhere (never runs out)

    def join(self, other: Pipeline) -> Pipeline:
        return Pipeline(
            self.batched if self.batched == other.batched else None,
            max(self.size, other.size)
            if self.size is not None and other.size is not None
            else None,
            self.repeated if self.repeated == other.repeated else None,
        )


UNKNOWN_PIPELINE = Pipeline(None, None, None)
_BATCH = frozenset({"batch", "padded_batch", "ragged_batch"})
_KEEPS = frozenset(
    {
        "map",
        "filter",
        "shuffle",
        "prefetch",
        "cache",
        "with_options",
        "ignore_errors",
        "take_while",
        "enumerate",
        "unique",
        "snapshot",
        "apply_options",
    }
)
# Sources that yield single elements and how many (None: unknown number).
_UNBATCHED_SOURCES = frozenset(
    {
        "tensorflow.data.Dataset.from_tensor_slices",
        "tensorflow.data.Dataset.range",
        "tensorflow.data.Dataset.list_files",
        "tensorflow.data.TFRecordDataset",
        "tensorflow.data.TextLineDataset",
        "tensorflow.data.FixedLengthRecordDataset",
        "tensorflow.data.experimental.CsvDataset",
    }
)


def pipeline(ctx: BlockContext, expr: ast.AST) -> Pipeline | None:
    """What is known about the dataset ``expr`` holds; None when it is not surely a dataset."""
    if not ctx.is_instance_of(expr, "dataset"):
        return None
    found = origin_of(ctx, expr)
    if found is None:
        return UNKNOWN_PIPELINE
    return _join(_pipeline(ctx.model, term, block, 0) for term, block in found)


def _join(parts: Iterator[Pipeline]) -> Pipeline:
    result: Pipeline | None = None
    for part in parts:
        result = part if result is None else result.join(part)
    return result or UNKNOWN_PIPELINE


def _pipeline_of(model: ModuleModel, term: Term, block: int, depth: int) -> Pipeline:
    found = origins(model, term, block, depth + 1)
    if found is None:
        return UNKNOWN_PIPELINE
    return _join(_pipeline(model, t, k, depth + 1) for t, k in found)


def _pipeline(model: ModuleModel, term: Term, block: int, depth: int) -> Pipeline:
    parts = call_parts(term)
    if parts is None or depth > _MAX_DEPTH:
        return UNKNOWN_PIPELINE
    func, args, kwargs = parts
    if func.tag == "attr":
        base, method = func.args
        if v.all_of(model.value(base, block), lambda x: x.kind == v.DATASET):
            return _method(
                model, _pipeline_of(model, base, block, depth), method, args, kwargs, block
            )
    name = term_qualname(model, func, block)
    if name is None:
        return UNKNOWN_PIPELINE
    if name in _UNBATCHED_SOURCES:
        size = None
        if name.endswith(".from_tensor_slices") and args:
            size = first_dimension(model, args[0], block)
        elif name == "tensorflow.data.Dataset.range" and args:
            numbers = [term_int(model, a, block) for a in args[:3]]
            if all(n is not None for n in numbers):
                try:
                    size = len(range(*[n for n in numbers if n is not None]))
                except (TypeError, ValueError):
                    size = None
        return Pipeline(False, size, False)
    if name in KERAS_DATASET_UTILITIES:  # batched unless batch_size=None
        batch = kwargs.get("batch_size")
        return Pipeline(not (batch is not None and term_is_none(batch)), None, False)
    if name == "tensorflow.data.Dataset.zip":
        members = args[0].args[0] if len(args) == 1 and args[0].tag == "tuple" else args
        if not members:
            return UNKNOWN_PIPELINE
        joined = [_pipeline_of(model, m, block, depth) for m in members]
        sizes = [p.size for p in joined]
        return Pipeline(
            joined[0].batched if all(p.batched == joined[0].batched for p in joined) else None,
            min(s for s in sizes if s is not None) if any(s is not None for s in sizes) else None,
            None,
        )
    return UNKNOWN_PIPELINE


def _method(
    model: ModuleModel,
    before: Pipeline,
    method: str,
    args: tuple[Term, ...],
    kwargs: dict[str, Term],
    block: int,
) -> Pipeline:
    first = args[0] if args else None
    if method in _BATCH:
        size_term = first if first is not None else kwargs.get("batch_size")
        batch = term_int(model, size_term, block) if size_term is not None else None
        size = None
        if before.size is not None and batch is not None and batch > 0:
            size = -(-before.size // batch)
        return Pipeline(True, size, before.repeated)
    if method in _KEEPS:
        return before
    if method == "take" or method == "skip":
        count_term = first if first is not None else kwargs.get("count")
        count = term_int(model, count_term, block) if count_term is not None else None
        size = None
        if method == "take":
            if count is not None and count >= 0:
                size = count if before.size is None else min(before.size, count)
        elif before.size is not None and count is not None:
            size = max(before.size - max(count, 0), 0)
        return Pipeline(before.batched, size, before.repeated if method == "skip" else False)
    if method == "repeat":
        count_term = first if first is not None else kwargs.get("count")
        if count_term is None or term_is_none(count_term):
            return Pipeline(before.batched, None, True)
        count = term_int(model, count_term, block)
        if count is None or count < 0:
            return Pipeline(before.batched, None, None if count is None else True)
        size = before.size * count if before.size is not None else None
        return Pipeline(before.batched, size, before.repeated)
    if method == "unbatch":
        return Pipeline(False, None, before.repeated)
    if method in ("rebatch", "bucket_by_sequence_length"):
        return Pipeline(True, None, before.repeated)
    if method == "shard":
        return Pipeline(before.batched, None, before.repeated)
    return UNKNOWN_PIPELINE


# -- arrays -------------------------------------------------------------------------------
_SHAPED = frozenset(
    {
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "tensorflow.zeros",
        "tensorflow.ones",
        "tensorflow.fill",
    }
)


def first_dimension(model: ModuleModel, term: Term, block: int, depth: int = 0) -> int | None:
    """The length of the first axis of an array literal or constructor, when it is literal."""
    if depth > _MAX_DEPTH:
        return None
    found = single_origin(model, term, block, depth + 1)
    if found is None:
        return None
    term, block = found
    if term.tag in ("tuple", "dict"):
        members = term.args[0] if term.tag == "tuple" else term.args[1]
        if not members or all(m.tag == "const" for m in members):
            return None
        return first_dimension(model, members[0], block, depth + 1)
    if term.tag == "list":
        return len(term.args[0]) or None
    parts = call_parts(term)
    if parts is None:
        return None
    func, args, kwargs = parts
    if func.tag == "attr" and func.args[1] == "astype":
        return first_dimension(model, func.args[0], block, depth + 1)
    name = term_qualname(model, func, block)
    shape = args[0] if args else kwargs.get("shape")
    if name in _SHAPED and shape is not None:
        if shape.tag in ("tuple", "list"):
            elements = shape.args[0]
            return term_int(model, elements[0], block) if elements else None
        return term_int(model, shape, block)
    if name == "numpy.arange" and len(args) == 1:
        return term_int(model, args[0], block)
    return None


def layer_calls(model: ModuleModel, term: Term, block: int) -> list[tuple[str, Term, int]] | None:
    """The layers a ``Sequential([...])`` origin lists, as (qualname, call term, block);
    None when the model is built another way or a layer is not a visible constructor call."""
    built = built_by(model, term, block)
    if built is None:
        return None
    func, args, kwargs, block = built
    if term_qualname(model, func, block) not in ("keras.Sequential", "keras.models.Sequential"):
        return None
    layers = args[0] if args else kwargs.get("layers")
    if layers is None:
        return []
    items = single_origin(model, layers, block)
    if items is None or items[0].tag not in ("list", "tuple"):
        return None
    out: list[tuple[str, Term, int]] = []
    for item in items[0].args[0]:
        made = single_origin(model, item, items[1])
        if made is None or made[0].tag != "call":
            return None
        layer_term, layer_block = made
        name = term_qualname(model, layer_term.args[0], layer_block)
        if name is None:
            return None
        out.append((name, layer_term, layer_block))
    return out
