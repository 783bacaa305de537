"""tf.data family (TFL202-TFL205): pipelines that silently reorder, leak, unpair or vanish.

The detectors follow datasets with the flow model of :mod:`tflsp.analysis.dataflow`: the
module summary replays the module-level statements of every block in order (each is its own
block), and the detectors here replay function bodies.  TFL201 lives in :mod:`.data_map`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from tflsp.analysis.context import BlockContext
from tflsp.analysis.dataflow import (
    DATASET_METHODS,
    FnInfo,
    Program,
    compile_body,
    program_names,
)
from tflsp.analysis.dataflow_run import Flow, Note
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import FunctionNode, NodeIndex
from tflsp.analysis.method_parts import MethodBody, Pieces
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import ByMethod, detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.summary import EXTRA, ModuleSummary

FACT = "tflsp.data"

# -- randomness (TFL204 "randomly augmented") ------------------------------------------------
# A function traced by tf.data draws new numbers per element only through TensorFlow ops;
# Python's ``random`` and ``np.random`` do so only when run eagerly (tf.py_function).
_GRAPH_RANDOM_PREFIXES = (
    "tensorflow.random.",
    "tensorflow.image.random_",
    "keras.random.",
    "keras.layers.Random",
)
_EAGER_RANDOM_PREFIXES = (*_GRAPH_RANDOM_PREFIXES, "numpy.random.", "random.")
_EAGER_WRAPPER_NAMES = ("py_function", "numpy_function", "py_func")
_NOT_RANDOM_PARTS = ("stateless", "seed", "Generator", "SeedGenerator", "get_global_generator")


def _random_api(qualname: str | None, *, eager: bool) -> bool:
    if qualname is None:
        return False
    prefixes = _EAGER_RANDOM_PREFIXES if eager else _GRAPH_RANDOM_PREFIXES
    if not qualname.startswith(prefixes):
        return False
    return not any(part in qualname for part in _NOT_RANDOM_PARTS)


@dataclass(frozen=True, slots=True)
class FunctionRandomness:
    name: str
    callees: tuple[str, ...]  # dotted callees that mention "random" (resolved later)
    calls: tuple[str, ...]  # plain names it calls
    eager_refs: tuple[str, ...]  # functions it hands to tf.py_function / tf.numpy_function


@dataclass(frozen=True, slots=True)
class DataBlockFacts:
    program: Program
    functions: tuple[FunctionRandomness, ...]


LocalNote = tuple[str, int, "int | None", tuple[object, ...]]  # tag, site, other site, data


class DataModuleInfo:
    """Combined over the module: notes for module-level programs, and random functions."""

    __slots__ = ("_key", "constants", "eager_random", "graph_random", "notes")

    def __init__(
        self,
        notes: dict[Program, tuple[LocalNote, ...]],
        graph_random: frozenset[str],
        eager_random: frozenset[str],
        constants: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.notes = notes
        self.graph_random = graph_random
        self.eager_random = eager_random
        self.constants = constants  # module-level int constants, for function bodies
        self._key = (frozenset(notes.items()), graph_random, eager_random, constants)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DataModuleInfo) and other._key == self._key


EMPTY_INFO = DataModuleInfo({}, frozenset(), frozenset())


def _module_program(index: NodeIndex) -> tuple[Program, list[ast.AST]]:
    """The block's module-level dataset program: built for the facts, read again by the
    detector."""
    cached = index.memo.get("data.program")
    if cached is None:
        terms = semantics_of(index).terms
        cached = index.memo["data.program"] = compile_body(index.tree.body, terms)
    return cached


def _extract(index: NodeIndex) -> Hashable:
    return _block_facts(index, _randomness_in(index, index.nodes(ast.Call)))


def _part(body: MethodBody) -> tuple[FunctionRandomness, ...]:
    """The method and its defs: what their calls call, syntax only (its key's text), header
    included (a call in a decorator or a default counts for the method, as in one go)."""
    return _randomness_in(body.index, body.nodes(ast.Call))


def _whole(index: NodeIndex, pieces: Pieces[tuple[FunctionRandomness, ...]]) -> Hashable:
    # Each function's calls lie in one stretch (a method's, or one between methods): taken
    # stretch by stretch, the functions come in the order of their first call, as in one go.
    functions: list[FunctionRandomness] = []
    for piece, run in pieces.cut(index.nodes(ast.Call)):
        functions.extend(piece.part if piece is not None else _randomness_in(index, run))
    return _block_facts(index, tuple(functions))


def _block_facts(index: NodeIndex, functions: tuple[FunctionRandomness, ...]) -> Hashable:
    program, _ = _module_program(index)
    if not program and not functions:
        return None
    return DataBlockFacts(program, functions)


def _randomness_in(index: NodeIndex, calls: Sequence[ast.Call]) -> tuple[FunctionRandomness, ...]:
    # What each function calls, from the node index (one pass, no extra tree walks).
    found: dict[FunctionNode, tuple[set[str], set[str], set[str]]] = {}
    for call in calls:
        text = dotted(call.func)
        if text is None:
            continue
        fn = index.enclosing_function(call)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        callees, plain, refs = found.setdefault(fn, (set(), set(), set()))
        if "andom" in text:
            callees.add(text)
        if "." not in text:
            plain.add(text)
        if text.endswith(_EAGER_WRAPPER_NAMES):
            target = call.args[0] if call.args else _keyword(call, "func")
            ref = dotted(target) if target is not None else None
            if ref is not None:
                refs.add(ref.rpartition(".")[2])
    return tuple(
        FunctionRandomness(fn.name, tuple(sorted(c)), tuple(sorted(n)), tuple(sorted(r)))
        for fn, (c, n, r) in found.items()
    )


def _combine(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    blocks = [v if isinstance(v, DataBlockFacts) else None for v in values]
    by_name: dict[str, list[FunctionRandomness]] = {}
    for b in blocks:
        if b is not None:
            for fn in b.functions:
                by_name.setdefault(fn.name, []).append(fn)
    functions = {name: tuple(fns) for name, fns in by_name.items()}
    # Typing at module level leaves the functions alone: their randomness is remembered with
    # what it read (the functions' facts, the names it resolved).
    summary.declare(_FUNCTIONS, functions)
    graph_random, eager_random = summary.remember(
        _FUNCTIONS, partial(_random_of, summary, functions), _NO_RANDOM
    )
    # The statements of the module run in order, but only those that mention the same names
    # meet (a dataset's ancestry, splits and notes all go through the names that hold it):
    # each group of blocks linked by names runs on its own, remembered with what it read, so
    # a keystroke runs again the group of the block typed in.
    parts = summary.block_values(FACT, values, _program_part, _NO_PROGRAM, _no_program)
    per_block: dict[int, list[LocalNote]] = {}
    found_constants: list[tuple[str, int]] = []
    for group in summary.remember((FACT, "groups", parts), partial(_groups, parts), _NO_GROUPS):
        group_notes, group_constants = summary.remember(
            (FACT, "run", group, graph_random, eager_random),
            partial(_run, summary, blocks, group, graph_random, eager_random),
            _NO_RUN,
        )
        found_constants.extend(group_constants)
        for note in group_notes:
            number = note.site[0]
            other = note.other[1] if note.other is not None and note.other[0] == number else None
            per_block.setdefault(number, []).append((note.tag, note.site[1], other, note.data))
    notes = _notes_by_program(blocks, parts, per_block)
    model = summary.model
    constants = tuple(
        (name, value)
        for name, value in sorted(found_constants)
        if model is not None and model.final(name) == frozenset({v.Value(v.INT, const=value)})
    )
    if not notes and not graph_random and not eager_random and not constants:
        return EMPTY_INFO
    return DataModuleInfo(
        notes,
        frozenset(graph_random),
        frozenset(eager_random),
        constants,
    )


# A class block has no module-level program (``compile_body`` skips a class): its value is
# its functions', made method by method.
module_fact(
    FACT, _extract, _combine, reads_values=True, by_method=ByMethod(_part, _whole, header=True)
)

# A block's program: the names it mentions (reads or binds) and its hash; None: no program.
_ProgramPart = tuple[frozenset[str], int] | None
_NO_PROGRAM: _ProgramPart = None
_NO_RUN: tuple[tuple[Note, ...], tuple[tuple[str, int], ...]] = ((), ())
_NO_GROUPS: tuple[tuple[int, ...], ...] = ()


def _no_program(value: Hashable) -> bool:
    return not isinstance(value, DataBlockFacts) or not value.program


def _program_part(block: int, value: Hashable) -> _ProgramPart:
    if not isinstance(value, DataBlockFacts) or not value.program:
        return None
    return frozenset(program_names(value.program)), hash(value.program)


def _groups(parts: Sequence[_ProgramPart]) -> tuple[tuple[int, ...], ...]:
    """The blocks with a program, in groups linked by the names they mention (in module
    order, each group in module order)."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        root = parent.setdefault(x, x)
        while root != parent[root]:
            root = parent[root]
        while parent[x] != root:  # flatten the path walked
            parent[x], x = root, parent[x]
        return root

    for k, part in enumerate(parts):
        if part is not None:
            here = find(k)
            for name in part[0]:
                there = find(name)
                if there != here:
                    parent[there] = here
    groups: dict[object, list[int]] = {}
    for k, part in enumerate(parts):
        if part is not None:
            groups.setdefault(find(k), []).append(k)
    return tuple(tuple(group) for group in groups.values())


def _run(
    summary: ModuleSummary,
    blocks: Sequence[DataBlockFacts | None],
    group: tuple[int, ...],
    graph_random: frozenset[str],
    eager_random: frozenset[str],
) -> tuple[tuple[Note, ...], tuple[tuple[str, int], ...]]:
    """Run one group's programs in module order: its notes, and its names bound to ints."""
    model = summary.model

    def is_dataset(term: Term, block: int) -> bool:
        if model is None:
            return False
        return v.all_of(model.value(term, block), lambda x: x.kind == v.DATASET)

    flow = Flow(_random_map_check(summary.resolve, graph_random, eager_random), (), is_dataset)
    for number in group:
        summary.touch((EXTRA, FACT, number))
        block = blocks[number]
        if block is not None:
            flow.run(block.program, number)
    return tuple(flow.notes), flow.constants()


def _notes_by_program(
    blocks: Sequence[DataBlockFacts | None],
    parts: Sequence[_ProgramPart],
    per_block: dict[int, list[LocalNote]],
) -> dict[Program, tuple[LocalNote, ...]]:
    """The notes of each program: the same statement in several blocks keeps only what holds
    for every occurrence (looked for among the programs of the same hash)."""
    by_hash: dict[int, list[int]] = {}
    for k, part in enumerate(parts):
        if part is not None:
            by_hash.setdefault(part[1], []).append(k)
    notes: dict[Program, tuple[LocalNote, ...]] = {}
    for number in sorted(per_block):
        block = blocks[number]
        part = parts[number]
        if block is None or part is None:
            continue
        program = block.program
        same = [
            k for k in by_hash[part[1]] if (b := blocks[k]) is not None and b.program == program
        ]
        if same[0] != number:
            continue  # a later occurrence: the first one's notes are filtered by it below
        found = tuple(per_block[number])
        for k in same[1:]:
            later = per_block.get(k, ())
            found = tuple(n for n in found if n in later)
        if found:
            notes[program] = found
    return notes


_FUNCTIONS = f"{FACT}.functions"  # declared input: function name -> its randomness facts
_NO_RANDOM: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def _random_of(
    summary: ModuleSummary, functions: dict[str, tuple[FunctionRandomness, ...]]
) -> tuple[frozenset[str], frozenset[str]]:
    summary.touch((_FUNCTIONS,))  # every function, and which there are
    graph, eager = _random_functions(functions, summary.resolve)
    return frozenset(graph), frozenset(eager)


def _random_functions(
    by_name: Mapping[str, Sequence[FunctionRandomness]], resolve: Callable[[str], str | None]
) -> tuple[set[str], set[str]]:
    """Function names that draw random numbers when traced (graph) or run eagerly."""
    graph = {
        name
        for name, fns in by_name.items()
        if any(_random_api(resolve(c), eager=False) for f in fns for c in f.callees)
    }
    eager = {
        name
        for name, fns in by_name.items()
        if any(_random_api(resolve(c), eager=True) for f in fns for c in f.callees)
    }
    changed = True
    while changed:
        changed = False
        for name, fns in by_name.items():
            calls = {c for f in fns for c in f.calls}
            refs = {r for f in fns for r in f.eager_refs}
            if name not in graph and (calls & graph or refs & eager):
                graph.add(name)
                changed = True
            if name not in eager and (calls & eager or refs & eager):
                eager.add(name)
                changed = True
    return graph, eager


def _random_map_check(
    resolve: Callable[[str], str | None], graph: Iterable[str], eager: Iterable[str]
) -> Callable[[FnInfo], bool]:
    graph_set, eager_set = frozenset(graph), frozenset(eager)

    def check(fn: FnInfo) -> bool:
        if fn.name is not None:
            return fn.name.rpartition(".")[2] in graph_set
        if any(_random_api(resolve(c), eager=False) for c in fn.callees):
            return True
        if any(c in graph_set for c in fn.callees if "." not in c):
            return True
        return any(r.rpartition(".")[2] in eager_set for r in fn.eager_refs)

    return check


def _info(ctx: BlockContext) -> DataModuleInfo:
    info = ctx.summary.extra.get(FACT)
    return info if isinstance(info, DataModuleInfo) else EMPTY_INFO


# -- flow notes for one block ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BlockNote:
    tag: str
    node: ast.AST
    other: ast.AST | None
    data: tuple[object, ...]
    body: Sequence[ast.stmt]  # the statements the note was found in (for fixes)


def _block_notes(ctx: BlockContext) -> list[BlockNote]:
    """Notes for this block: module-level statements from the summary, functions replayed."""
    cached = ctx.memo.get("data.notes")
    if cached is None:  # several detectors read the notes: replay the functions once
        cached = ctx.memo["data.notes"] = _replay_notes(ctx)
    return cached


def _replay_notes(ctx: BlockContext) -> list[BlockNote]:
    info = _info(ctx)
    out: list[BlockNote] = []
    if info.notes:
        program, sites = _module_program(ctx.index)
        for tag, site, other, data in info.notes.get(program, ()):
            other_node = sites[other] if other is not None else None
            out.append(BlockNote(tag, sites[site], other_node, data, ctx.tree.body))
    check = _random_map_check(ctx.summary.resolve, info.graph_random, info.eager_random)

    def is_dataset(term: Term, block: int) -> bool:
        return v.all_of(ctx.model.value(term, ctx.ordinal), lambda x: x.kind == v.DATASET)

    for fn in _functions_worth_replaying(ctx):
        program, sites = compile_body(fn.body, ctx.semantics.terms)
        if not program:
            continue
        flow = Flow(check, info.constants, is_dataset)
        flow.run(program)
        for note in flow.notes:
            related = sites[note.other[1]] if note.other is not None else None
            out.append(BlockNote(note.tag, sites[note.site[1]], related, note.data, fn.body))
    return out


def _functions_worth_replaying(ctx: BlockContext) -> list[FunctionNode]:
    """Functions with two or more dataset calls of their own: a note needs at least two."""
    counts: dict[FunctionNode, int] = {}
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute):
            interesting = func.attr in DATASET_METHODS or func.attr in ("zip", "range")
            interesting = interesting or func.attr.startswith("from_tensor")
        else:
            interesting = isinstance(func, ast.Name) and func.id == "zip"
        if not interesting:
            continue
        fn = ctx.index.enclosing_function(call)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            counts[fn] = counts.get(fn, 0) + 1
    return [fn for fn, count in counts.items() if count >= 2]


def _method_span(ctx: BlockContext, call: ast.Call) -> tuple[int, int, int, int]:
    if isinstance(call.func, ast.Attribute):
        return ctx.attribute_span(call.func, end=call)
    return ctx.node_range(call)


@detector("TFL202", "TFL203", "TFL204", "TFL205")
def dataset_flow(ctx: BlockContext) -> None:
    """One replay of the dataset flow serves the four flow patterns."""
    for note in _block_notes(ctx):
        if not isinstance(note.node, ast.Call):
            continue
        if note.tag == "batch-before-shuffle":
            _batch_before_shuffle(ctx, note, note.node)
        elif note.tag == "split-after-reshuffle":
            _shuffle_split_leak(ctx, note.node)
        elif note.tag == "unpaired-streams":
            _unpaired_streams(ctx, note, note.node)
        elif note.tag == "empty-batch":
            _drop_remainder_empty(ctx, note, note.node)


# -- TFL202 batch-before-shuffle -------------------------------------------------------------
def _batch_before_shuffle(ctx: BlockContext, note: BlockNote, shuffle: ast.Call) -> None:
    batch = note.other if isinstance(note.other, ast.Call) else None
    edits = _swap_edits(ctx, batch, shuffle, note.body) if batch is not None else None
    fix = ctx.fix(*edits, safe=False) if edits else None
    method = "batch"
    if batch is not None and isinstance(batch.func, ast.Attribute):
        method = batch.func.attr
    ctx.report("TFL202", _method_span(ctx, shuffle), args={"batch": method}, fix=fix)


def _swap_edits(
    ctx: BlockContext, batch: ast.Call, shuffle: ast.Call, body: Sequence[ast.stmt]
) -> list[Edit] | None:
    """Swap ``.batch(..)`` and ``.shuffle(..)`` when nothing runs between them."""
    if not (isinstance(batch.func, ast.Attribute) and isinstance(shuffle.func, ast.Attribute)):
        return None
    if shuffle.func.value is batch:
        start = _end(ctx, batch.func.value)
        middle = _end(ctx, batch)
        stop = _end(ctx, shuffle)
        first = _text(ctx, start, middle)
        second = _text(ctx, middle, stop)
        return [Edit(*start, *stop, second + first)]
    # ``ds = ds.batch(4)`` directly followed by ``ds = ds.shuffle(10)``.
    first_stmt = _statement_of(ctx, batch, body)
    second_stmt = _statement_of(ctx, shuffle, body)
    if first_stmt is None or second_stmt is None:
        return None
    position = [id(s) for s in body].index(id(first_stmt))
    if position + 1 >= len(body) or body[position + 1] is not second_stmt:
        return None
    if not (isinstance(first_stmt, ast.Assign) and isinstance(second_stmt, ast.Assign)):
        return None
    target = _single_target(first_stmt)
    if (
        target is None
        or target != _single_target(second_stmt)
        or first_stmt.value is not batch
        or second_stmt.value is not shuffle
        or not (isinstance(batch.func.value, ast.Name) and batch.func.value.id == target)
        or not (isinstance(shuffle.func.value, ast.Name) and shuffle.func.value.id == target)
    ):
        return None
    batch_start, batch_stop = _end(ctx, batch.func.value), _end(ctx, batch)
    shuffle_start, shuffle_stop = _end(ctx, shuffle.func.value), _end(ctx, shuffle)
    batch_text = _text(ctx, batch_start, batch_stop)
    shuffle_text = _text(ctx, shuffle_start, shuffle_stop)
    return [
        Edit(*batch_start, *batch_stop, shuffle_text),
        Edit(*shuffle_start, *shuffle_stop, batch_text),
    ]


def _single_target(stmt: ast.Assign) -> str | None:
    if len(stmt.targets) == 1:
        target = stmt.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _statement_of(ctx: BlockContext, node: ast.AST, body: Sequence[ast.stmt]) -> ast.stmt | None:
    ids = {id(s) for s in body}
    for parent in ctx.index.ancestors(node):
        if id(parent) in ids and isinstance(parent, ast.stmt):
            return parent
    return None


def _end(ctx: BlockContext, node: ast.AST) -> tuple[int, int]:
    _, _, line, col = ctx.node_range(node)
    return line, col


def _text(ctx: BlockContext, start: tuple[int, int], stop: tuple[int, int]) -> str:
    return ctx.span_text(*start, *stop)


# -- TFL203 shuffle-split-leak ---------------------------------------------------------------
def _shuffle_split_leak(ctx: BlockContext, shuffle: ast.Call) -> None:
    ctx.report("TFL203", _method_span(ctx, shuffle), fix=_no_reshuffle_fix(ctx, shuffle))


def _no_reshuffle_fix(ctx: BlockContext, call: ast.Call) -> Fix | None:
    existing = ctx.keyword(call, "reshuffle_each_iteration")
    if existing is not None:
        return ctx.fix(ctx.replace(existing.value, "False"), safe=False)
    if len(call.args) > 2 or any(kw.arg is None for kw in call.keywords):
        return None
    arguments: list[ast.expr | ast.keyword] = [*call.args, *call.keywords]
    if not arguments:
        return None
    last = max(arguments, key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0))
    line, col = _end(ctx, last)
    return ctx.fix(ctx.insert_at(line, col, ", reshuffle_each_iteration=False"), safe=False)


# -- TFL204 shuffled-dataset-split-into-streams ----------------------------------------------
def _unpaired_streams(ctx: BlockContext, note: BlockNote, call: ast.Call) -> None:
    parts = _zip_parts(call)
    names = " and ".join(f"`{ctx.source(p)}`" for p in parts[:2])
    variant = "random_map" if note.data and note.data[0] == "map" else "default"
    ctx.report("TFL204", call, message=variant, args={"streams": names})


def _zip_parts(call: ast.Call) -> list[ast.expr]:
    args: list[ast.expr] = list(call.args)
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        return list(args[0].elts)
    return args


# -- TFL205 drop-remainder-empty -------------------------------------------------------------
def _drop_remainder_empty(ctx: BlockContext, note: BlockNote, call: ast.Call) -> None:
    drop = ctx.keyword(call, "drop_remainder")
    value = drop.value if drop is not None else (call.args[1] if len(call.args) > 1 else None)
    fix = ctx.fix(ctx.replace(value, "False"), safe=False) if value is not None else None
    batch_size, size = (*note.data, None, None)[:2]
    ctx.report(
        "TFL205",
        _method_span(ctx, call),
        message="keras2" if ctx.keras_version == 2 else "default",
        args={"batch_size": batch_size, "size": size},
        fix=fix,
    )


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


# For the other tf.data detectors that read the same notes (TFL206 in :mod:`.data_cache`).
block_notes = _block_notes
method_span = _method_span
