"""Practice family (TFL702, TFL703): training scripts without a seed, models built in loops.

Both are questions about the whole file (does it seed anywhere? does this helper build a
model?), answered by module facts so that a block is re-checked when another block changes
the answer.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence
from functools import partial

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.tracking_support import canonical_kind, state_kind
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.method_parts import MethodBody, Pieces, line_col
from tflsp.analysis.names import dotted, resolve_dotted
from tflsp.analysis.registry import ByMethod, detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.terms import UNKNOWN as UNKNOWN_TERM
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.summary import ModuleSummary, _resolve_function

SEEDERS = frozenset(
    {
        "keras.utils.set_random_seed",
        "tensorflow.random.set_seed",
        "tensorflow.compat.v1.set_random_seed",
        "tensorflow.compat.v1.random.set_random_seed",
    }
)
# Libraries whose seed functions do not seed TensorFlow.
_OTHER_RNGS = ("numpy.", "random.", "torch.", "jax.", "tensorflow.", "keras.")
# Random ops that take their randomness from an explicit seed, not the global one.
_SEEDED_OPS = ("stateless_", "Generator", "set_seed", "SeedGenerator", "experimental")
CLEAR_SESSION = frozenset({"keras.backend.clear_session", "keras.utils.clear_session"})
_TRAINING_METHODS = frozenset({"fit", "fit_generator", "train_on_batch"})


# -- module fact: does the file draw random numbers, and does it seed them? ---------------
RANDOMNESS = "practice.randomness"


def _fit_data(index: NodeIndex, call: ast.Call) -> Term | None:
    """What ``model.fit`` trains on when it shuffles it (``shuffle=True`` is the default, and
    a tf.data Dataset ignores it: the summary looks at the value)."""
    shuffle = next((kw.value for kw in call.keywords if kw.arg == "shuffle"), None)
    if isinstance(shuffle, ast.Constant) and shuffle.value is False:
        return None
    first = call.args[0] if call.args else None
    if first is None:
        return UNKNOWN_TERM
    return semantics_of(index).terms.expr(first)


# Where a training call sits: (scope id or "", its rank among the block's candidate training
# calls, its code).  No line numbers: an edit that only shifts lines must leave the module
# fact, and so every block's cached findings, unchanged.
Site = tuple[str, int, str]


def _candidates(index: NodeIndex) -> list[ast.Call]:
    """``x.fit(...)``-like and ``x.apply_gradients(...)`` calls, in source order."""
    return [
        call
        for call in index.nodes(ast.Call)
        if isinstance(call.func, ast.Attribute)
        and (call.func.attr in _TRAINING_METHODS or call.func.attr == "apply_gradients")
    ]


def _scope(index: NodeIndex, call: ast.Call) -> str:
    fn = index.enclosing_function(call)
    return index.scope_id(fn) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""


def _site(index: NodeIndex, call: ast.Call, rank: int) -> Site:
    return (_scope(index, call), rank, ast.dump(call))


# A training candidate before it is ranked: (scope, code, method, receiver term).
_Candidate = tuple[str, str, str, Term]
# What a method's body gives: its callees, what its fit() calls shuffle, its candidates.
_RandomPart = tuple[frozenset[str], tuple[Term, ...], tuple[_Candidate, ...]]


def _extract_randomness(index: NodeIndex) -> Hashable:
    """Callee texts, whether ``fit`` shuffles arrays, and the candidate training calls."""
    texts, fit_data, candidates = _randomness_in(index, index.nodes(ast.Call))
    return _randomness(texts, [term for _, term in fit_data], [found for _, found in candidates])


def _method_randomness(body: MethodBody) -> _RandomPart:
    """A method's body: its calls' texts and code, the scope ids of its defs (names in its
    text and local ids), and the terms of fit()'s data and of the receivers (a body reads
    only its own names).  Ranks are given by ``whole``, which knows the calls before."""
    texts, fit_data, candidates = _randomness_in(body.index, body.nodes(ast.Call))
    return (
        frozenset(texts),
        tuple(term for _, term in fit_data),
        tuple(found for _, found in candidates),
    )


def _whole_randomness(index: NodeIndex, pieces: Pieces[_RandomPart]) -> Hashable:
    # The calls outside the methods' bodies in one go: they ask for terms in the order a
    # fresh extraction does (every fit() first, then the receivers).
    texts, fit_data, candidates = _randomness_in(index, pieces.outside(index.nodes(ast.Call)))
    for piece in pieces.pieces:
        texts |= piece.part[0]
    fits = pieces.weave(fit_data, _part_fits)
    return _randomness(texts, fits, pieces.weave(candidates, _part_candidates))


def _randomness(texts: set[str], fits: list[Term], candidates: list[_Candidate]) -> Hashable:
    training = tuple(  # (site, method, receiver term)
        ((scope, rank, code), method, receiver)
        for rank, (scope, code, method, receiver) in enumerate(candidates)
    )
    return (frozenset(texts), tuple(fits), training)


def _part_fits(part: _RandomPart) -> tuple[Term, ...]:
    return part[1]


def _part_candidates(part: _RandomPart) -> tuple[_Candidate, ...]:
    return part[2]


def _randomness_in(
    index: NodeIndex, calls: Sequence[ast.Call]
) -> tuple[set[str], list[tuple[ast.Call, Term]], list[tuple[ast.Call, _Candidate]]]:
    texts: set[str] = set()
    fit_data: list[tuple[ast.Call, Term]] = []
    chosen: list[tuple[ast.Call, ast.Attribute]] = []
    for call in calls:
        func = call.func
        text = dotted(func)
        if text is not None:
            texts.add(text)
        if isinstance(func, ast.Attribute):
            if func.attr == "fit":
                data = _fit_data(index, call)
                if data is not None:
                    fit_data.append((call, data))
            if func.attr in _TRAINING_METHODS or func.attr == "apply_gradients":
                chosen.append((call, func))
    # The receivers' terms after every fit()'s data, as they always were asked for.
    terms = semantics_of(index).terms
    candidates = [
        (call, (_scope(index, call), ast.dump(call), func.attr, terms.expr(func.value)))
        for call, func in chosen
    ]
    return texts, fit_data, candidates


def local_keras_kinds(summary: ModuleSummary) -> dict[str, str]:
    """Class name -> ``layer`` | ``model`` for the Keras classes defined in the module."""
    out: dict[str, str] = {}
    for class_id, facts in summary.classes.items():
        kind = summary.keras_classes.get(class_id)
        if kind in ("layer", "model"):
            out.setdefault(facts.name, kind)
    return out


def _source_of(text: str, summary: ModuleSummary, local: dict[str, str]) -> str | None:
    """A short description of the randomness a callee brings, or None."""
    last = text.rpartition(".")[2]
    if not (last[:1].isupper() or last == "shuffle" or "random" in text):
        return None  # cheap filter before resolving
    name = resolve_dotted(text, summary.imports)
    if name is None:
        if text in local:
            return "weight initializers"
        return "Dataset.shuffle" if last == "shuffle" and "." in text else None
    if name.startswith(("tensorflow.random.", "keras.random.")):
        return None if any(part in name for part in _SEEDED_OPS) else "tf.random ops"
    kind = canonical_kind(name)
    if kind == "random_layer":
        return "dropout and noise layers"
    if kind in ("layer", "model"):
        return "weight initializers"
    if last == "shuffle" and not name.startswith(("numpy.", "random.")):
        return "Dataset.shuffle"
    return None


def _seeds(text: str, summary: ModuleSummary) -> bool:
    """``keras.utils.set_random_seed`` and friends, or a project helper named like a seeder."""
    if "seed" not in text.rpartition(".")[2].lower():
        return False
    name = resolve_dotted(text, summary.imports)
    return name in SEEDERS or name is None or not name.startswith(_OTHER_RNGS)


def _combine_randomness(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """``(sources, first training call)`` of a file that draws random numbers, trains and
    never seeds TensorFlow; ``None`` otherwise."""
    # Each block's part is remembered with what it read: a keystroke in one block looks at
    # that block again, not at every callee of the module.
    parts = summary.block_values(
        RANDOMNESS, values, partial(_randomness_part, summary), _NOTHING_RANDOM, _nothing_in
    )
    sources: set[str] = set()
    first: Site | None = None
    seeded = False
    for block, (candidates, block_sources, seeds) in enumerate(parts):
        if first is None:
            # In module order, up to the first training call (the model remembers values).
            first = _first_training(summary, block, candidates)
        sources |= block_sources
        seeded = seeded or seeds
    if first is None or seeded:
        return None
    return (tuple(sorted(sources)), first) if sources else None


def _first_training(summary: ModuleSummary, block: int, candidates: _Candidates) -> Site | None:
    model = summary.model
    if model is None:
        return None
    for site, method, receiver in candidates:
        if method == "apply_gradients" or v.all_of(
            model.value(receiver, block),
            lambda x: x.kind == v.INSTANCE and x.base == v.MODEL,
        ):
            return site
    return None


# A block's candidate training calls, the randomness it brings (callees, fit() shuffling
# arrays), and whether it seeds TensorFlow.
_Candidates = tuple[tuple[Site, str, Term], ...]  # (site, method, receiver) in block order
_Part = tuple[_Candidates, frozenset[str], bool]
_NOTHING_RANDOM: _Part = ((), frozenset(), False)


def _nothing_in(value: Hashable) -> bool:
    return not isinstance(value, tuple) or not (value[0] or value[1] or value[2])


def _randomness_part(summary: ModuleSummary, block: int, value: Hashable) -> _Part:
    model = summary.model
    if not isinstance(value, tuple) or model is None:
        return _NOTHING_RANDOM
    sources: set[str] = set()
    if any(v.all_of(model.value(data, block), lambda x: x.kind != v.DATASET) for data in value[1]):
        sources.add("fit(shuffle=True)")  # arrays: fit shuffles them every epoch
    seeds = False
    if value[0]:
        summary.reads_imports()
        summary.reads_classes()  # the Keras kinds of local classes
        # Callees repeat from block to block: each is judged once per summary.
        verdicts = summary.derived("practice.randomness_verdicts", _no_verdicts)
        for text in value[0]:
            found = verdicts.get(text)
            if found is None:
                found = verdicts[text] = _verdict(summary, text)
            seeds = seeds or found[0]
            if found[1] is not None:
                sources.add(found[1])
    return (value[2], frozenset(sources), seeds)


def _no_verdicts(summary: ModuleSummary) -> dict[str, tuple[bool, str | None]]:
    return {}


def _verdict(summary: ModuleSummary, text: str) -> tuple[bool, str | None]:
    """Does the callee seed TensorFlow, and what randomness does it bring?"""
    local = summary.derived("practice.local_keras_kinds", local_keras_kinds)
    return _seeds(text, summary), _source_of(text, summary, local)


# Calls in a header run in the class body: left to ``whole``.
module_fact(
    RANDOMNESS,
    _extract_randomness,
    _combine_randomness,
    reads_values=True,
    by_method=ByMethod(_method_randomness, _whole_randomness),
)


@detector("TFL702")
def unseeded_randomness(ctx: BlockContext) -> None:
    """Reported once per file, at its first training call."""
    fact = ctx.summary.extra.get(RANDOMNESS)
    if not isinstance(fact, tuple):
        return
    sources, first = fact
    candidates = _candidates(ctx.index)
    if len(candidates) <= first[1]:
        return
    call = candidates[first[1]]
    if _site(ctx.index, call, first[1]) == first:
        ctx.report(
            "TFL702",
            call,
            args={"method": ctx.source(call.func), "sources": ", ".join(sources)},
        )


# -- module fact: functions that build Keras models ---------------------------------------
BUILDERS = "practice.model_builders"


def _may_matter(text: str) -> bool:
    """Callees that can build a model or clear the session: constructors, local functions."""
    last = text.rpartition(".")[2]
    return last[:1].isupper() or last == "clear_session" or "." not in text


# (function id, callee texts) for the functions of a block, or of a method, in source order.
_Callees = tuple[tuple[str, frozenset[str]], ...]


def _extract_callees(index: NodeIndex) -> Hashable:
    """``(function id, callee texts)`` for the functions of the block; a call counts for every
    function around it, as in the summary's call graph."""
    functions = index.functions()
    if not functions:
        return ()
    table = _callees_in(index, functions, index.nodes(ast.Call))
    return tuple((index.scope_id(fn), frozenset(texts)) for fn, texts in table.items())


def _callees_part(body: MethodBody) -> _Callees:
    """The method and its defs: the texts of calls in it (syntax only, header included: a call
    in a decorator or a default counts for the method, as in the summary's call graph)."""
    functions = sorted(
        [*body.nodes(ast.FunctionDef), *body.nodes(ast.AsyncFunctionDef)], key=line_col
    )
    table = _callees_in(body.index, functions, body.nodes(ast.Call))
    return tuple((body.index.scope_id(fn), frozenset(texts)) for fn, texts in table.items())


def _whole_callees(index: NodeIndex, pieces: Pieces[_Callees]) -> _Callees:
    # A call outside every method counts only for functions outside them (those of classes
    # defined in the class body): the methods are the calls' outermost functions.
    functions = index.functions()
    table = _callees_in(index, pieces.outside(functions), pieces.outside(index.nodes(ast.Call)))
    out: list[tuple[str, frozenset[str]]] = []
    for piece, run in pieces.cut(functions):
        if piece is not None:
            out.extend(piece.part)
        else:
            out.extend((index.scope_id(fn), frozenset(table[fn])) for fn in run)
    return tuple(out)


def _callees_in(
    index: NodeIndex, functions: Sequence[ast.AST], calls: Sequence[ast.Call]
) -> dict[ast.AST, set[str]]:
    table: dict[ast.AST, set[str]] = {fn: set() for fn in functions}
    if not table:
        return table
    for call in calls:
        text = dotted(call.func)
        if text is None or not _may_matter(text):
            continue
        for scope in index.ancestors(call):
            found = table.get(scope)
            if found is not None:
                found.add(text)
    return table


def _builds_model(text: str, summary: ModuleSummary, local: dict[str, str]) -> bool:
    if not text.rpartition(".")[2][:1].isupper():
        return False
    name = resolve_dotted(text, summary.imports)
    if name is not None:
        return canonical_kind(name) == "model"
    return local.get(text) == "model"


def _combine_builders(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """``(function id, clears)`` for functions that build a Keras model, directly or through
    another such function; ``clears`` says the function itself calls clear_session()."""
    callees: dict[str, frozenset[str]] = {}
    for value in values:
        if isinstance(value, tuple):
            callees.update(value)
    builders: dict[str, bool] = {}
    local = local_keras_kinds(summary)
    for fid, texts in callees.items():
        if any(_builds_model(t, summary, local) for t in texts):
            clears = any(resolve_dotted(t, summary.imports) in CLEAR_SESSION for t in texts)
            builders[fid] = clears
    by_name = {facts.name: cid for cid, facts in summary.classes.items()}
    changed = True
    while changed:  # helpers that call a builder build models too
        changed = False
        for fid, texts in callees.items():
            facts = summary.functions.get(fid)
            if fid in builders or facts is None:
                continue
            for text in texts:
                target = _resolve_function(
                    text, fid, facts.class_id, summary.functions, summary.classes, by_name
                )
                if target in builders:
                    builders[fid] = builders[target]
                    changed = True
                    break
    return frozenset(builders.items())


module_fact(
    BUILDERS,
    _extract_callees,
    _combine_builders,
    by_method=ByMethod(_callees_part, _whole_callees, header=True),
)


def _loop_body_of(ctx: BlockContext, node: ast.AST) -> ast.AST | None:
    """The innermost ``for``/``while`` (in the same function) whose body holds ``node``."""
    child = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and child in parent.body:
            return parent
        child = parent
    return None


def _clears_in(ctx: BlockContext, loop: ast.AST) -> bool:
    for node in ast.walk(loop):
        if isinstance(node, ast.Call):
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if last == "clear_session" and ctx.resolve(func) in CLEAR_SESSION:
                return True
    return False


def _builder_call(ctx: BlockContext, call: ast.Call, builders: dict[str, bool]) -> bool | None:
    """None when ``call`` builds no model; else whether the builder clears the session."""
    made = state_kind(ctx, call)
    if made is not None:
        return False if made.kind == "model" else None
    text = dotted(call.func)
    if text is None or not builders:
        return None
    fn = ctx.index.enclosing_function(call)
    scope = (
        ctx.index.scope_id(fn) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    )
    cls = ctx.index.enclosing_class(call)
    target = _resolve_function(
        text,
        scope,
        ctx.index.scope_id(cls) if cls is not None else None,
        ctx.summary.functions,
        ctx.summary.classes,
    )
    return builders.get(target) if target is not None else None


@detector("TFL703")
def models_built_in_loop(ctx: BlockContext) -> None:
    loops = [*ctx.index.nodes(ast.For), *ctx.index.nodes(ast.While), *ctx.index.nodes(ast.AsyncFor)]
    if not loops:
        return
    fact = ctx.summary.extra.get(BUILDERS)
    builders = dict(fact) if isinstance(fact, frozenset) else {}
    for call in ctx.index.nodes(ast.Call):
        loop = _loop_body_of(ctx, call)
        if loop is None:
            continue
        clears = _builder_call(ctx, call, builders)
        if clears is None or clears or _clears_in(ctx, loop):
            continue
        ctx.report("TFL703", call, args={"call": ctx.source(call.func)})
