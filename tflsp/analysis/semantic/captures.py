"""Module names that go stale for graph code: rebound after a trace, then used by a later call.

A tf.function freezes the Python values it reads when it is traced.  Reading a module name is a
pitfall only when the name is bound again *between* a call that traces the graph and a later
call that reuses the trace (or in a loop that also calls it), or when another function writes
it through ``global`` (a setter that runs at any time, also from other modules).  Calls are resolved by value in module order, so a
notebook that redefines ``train_step`` per section calls each definition only where it is
defined; running a Keras model (calling it, ``fit``, ``predict``...) runs its graph methods.

The answer is per top-level definition: ``(top-level id, name)`` pairs.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import partial

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.evaluate import BlockParts
from tflsp.analysis.semantic.graph import GraphMap, callees
from tflsp.analysis.semantic.model import ModuleModel, qualname_of

Position = tuple[int, int]  # (block, event number)
_RUNS_MODEL = frozenset(
    {
        "fit",
        "evaluate",
        "predict",
        "train_on_batch",
        "test_on_batch",
        "predict_on_batch",
        "__call__",
    }
)
_KERAS_GRAPH = ("call", "train_step", "test_step", "predict_step", "compute_loss")


def _started(model: ModuleModel, block: int, index: int) -> tuple[str, ...]:
    """Local functions a module-level call starts directly."""
    model.evaluator.touch(block)
    call = model.blocks[block].calls[index]
    out = set(callees(model, block, call))
    func = call.func
    if func.tag == "attr" and func.args[1] in _RUNS_MODEL:
        for value in model.value(func.args[0], block):
            if value.kind == v.INSTANCE and value.is_local:
                for name in _KERAS_GRAPH:
                    method = model.method(value.local_id, name)
                    if method is not None:
                        out.add(method)
    return tuple(sorted(out))


_EAGER_SWITCHES = frozenset(
    {
        "tensorflow.config.run_functions_eagerly",
        "tensorflow.config.experimental_run_functions_eagerly",
    }
)


def _block_switches(model: ModuleModel, block: int) -> tuple[bool, ...]:
    """The block's module-level switches of eager execution, in order (True: on)."""
    model.evaluator.touch(block)
    facts = model.blocks[block]
    found: list[bool] = []
    for kind, item, _ in facts.timeline:
        if kind != "call":
            continue
        call = facts.calls[int(item)]
        func = call.func
        if func.tag != "attr" or func.args[1] not in (
            "run_functions_eagerly",
            "experimental_run_functions_eagerly",
        ):
            continue
        if qualname_of(model.value(func, block)) not in _EAGER_SWITCHES or not call.args:
            continue
        flag = model.value(call.args[0], block)
        if v.all_of(flag, lambda x: x.kind == v.BOOL and x.const is not None):
            found.append(next(iter(flag)).const is True)
    return tuple(found)


def eager_switches(
    model: ModuleModel, previous: BlockParts | None = None
) -> tuple[dict[object, bool], BlockParts]:
    """Block identity -> does module code switch functions back to graphs after this block?

    Only for blocks whose module code turns eager execution of tf.functions on."""
    parts = model.evaluator.block_parts(
        "eager-switches", partial(_block_switches, model), (), previous
    )
    switches = [(block, on) for block, found in enumerate(parts.parts) for on in found]
    out: dict[object, bool] = {}
    for i, (block, on) in enumerate(switches):
        if on:
            out[model.keys[block]] = any(not later for _, later in switches[i + 1 :])
    return out, parts


_Event = tuple[str, object, int]  # ("bind", name, loop) | ("call", started ids, loop)


def _block_events(model: ModuleModel, block: int) -> tuple[_Event, ...]:
    """The block's module-level bindings and the calls that start local functions, in the
    order they run (calls of library functions start nothing and are left out)."""
    evaluator = model.evaluator
    evaluator.touch(block)
    facts = model.blocks[block]
    events: list[_Event] = []
    for kind, item, loop in facts.timeline:
        if kind == "bind":
            events.append(("bind", item, loop))
            continue
        started = evaluator._memoized(
            ("started", block, item), partial(_started, model, block, int(item)), ()
        )
        if started:
            events.append(("call", started, loop))
    return tuple(events)


@dataclass(frozen=True)
class StaleGlobals:
    """``(top-level id, name)`` pairs, with what they were computed from."""

    pairs: frozenset[tuple[str, str]]
    events: BlockParts | None = None
    graph: GraphMap | None = None
    writers: tuple[dict[str, set[str]], frozenset[tuple[str, str]]] | None = None


def stale_globals(
    model: ModuleModel, graph: GraphMap, previous: StaleGlobals | None = None
) -> StaleGlobals:
    events = model.evaluator.block_parts(
        "stale-events",
        partial(_block_events, model),
        (),
        previous.events if previous is not None else None,
    )
    lazy = model.lazy_global_writers() if model.global_writers else frozenset()
    writers = (model.global_writers, lazy)
    if (
        previous is not None
        and previous.events is not None
        and model.edited is not None
        and previous.events.parts == events.parts
        and previous.graph is not None
        and (previous.graph.graph is graph.graph or previous.graph.graph == graph.graph)
        and (previous.graph.edges is graph.edges or previous.graph.edges == graph.edges)
        and previous.writers == writers
    ):
        return StaleGlobals(previous.pairs, events, graph, writers)
    pairs = _stale_pairs(model, graph, events.parts, writers[1])
    return StaleGlobals(pairs, events, graph, writers)


def _stale_pairs(
    model: ModuleModel,
    graph: GraphMap,
    parts: tuple[tuple[_Event, ...], ...],
    lazy: frozenset[tuple[str, str]],
) -> frozenset[tuple[str, str]]:
    reach_memo: dict[str, frozenset[str]] = {}

    def reached(gid: str) -> frozenset[str]:
        found = reach_memo.get(gid)
        if found is None:
            seen = {gid}
            queue = [gid]
            while queue:
                for target in graph.edges.get(queue.pop(), ()):
                    if target not in seen:
                        seen.add(target)
                        queue.append(target)
            found = reach_memo[gid] = frozenset(seen)
        return found

    traces: dict[str, list[tuple[Position, int]]] = {}  # top-level id -> (position, loop)
    runs: dict[str, list[Position]] = {}  # function id -> where module code runs it
    bindings: dict[str, list[tuple[Position, int]]] = {}
    loops_of_block: dict[tuple[int, int], int] = {}
    functions = model.functions
    for block, block_events in enumerate(parts):
        for number, (kind, item, loop) in enumerate(block_events):
            where = (block, number)
            loop_key = (
                -1 if loop < 0 else loops_of_block.setdefault((block, loop), len(loops_of_block))
            )
            if kind == "bind":
                bindings.setdefault(str(item), []).append((where, loop_key))
                continue
            tops: set[str] = set()
            for gid in item:  # type: ignore[attr-defined]
                for target in reached(gid):
                    # A function defined after this call cannot run in it.
                    if functions[target].block > block:
                        continue
                    runs.setdefault(target, []).append(where)
                    if target in graph.graph:
                        tops.add(target.split(".", 1)[0])
            for top in tops:
                traces.setdefault(top, []).append((where, loop_key))
    out: set[tuple[str, str]] = set()
    for top in {gid.split(".", 1)[0] for gid in graph.graph}:
        calls = traces.get(top, [])
        first = min((p for p, _ in calls), default=None)
        last = max((p for p, _ in calls), default=None)
        # ``global g`` writes from other functions: stale when one of them runs between two
        # calls of the graph code (or at any time, when nothing here traces it).  A function
        # that sets up its own state (``if g is None: g = ...``) does not count.  Nor, when
        # nothing here traces the graph code, does another function that only creates the
        # name once (the same guard): a lazy initialiser, run before the first use.
        for name, ids in model.global_writers.items():
            others = [w for w in ids if w.split(".", 1)[0] != top]
            if first is None:
                others = [w for w in others if (name, w) not in lazy]
            if others and (
                first is None or any(first < p < last for w in others for p in runs.get(w, ()))  # type: ignore[operator]
            ):
                out.add((top, name))
    # Names bound once never change.  The others, by where they are bound (positions in
    # module order, for a range search per traced definition) and by module-level loop.
    placed: list[tuple[Position, str]] = []
    in_loop: dict[int, set[str]] = {}
    for name, found in bindings.items():
        if len(found) < 2 and not (found and found[0][1] >= 0):
            continue
        for where, loop in found:
            placed.append((where, name))
            if loop >= 0:
                in_loop.setdefault(loop, set()).add(name)
    placed.sort()
    wheres = [where for where, _ in placed]
    for top, calls in traces.items():
        first = min(p for p, _ in calls)
        last = max(p for p, _ in calls)
        start = bisect.bisect_right(wheres, first)
        end = bisect.bisect_left(wheres, last)
        out.update((top, name) for _, name in placed[start:end])
        for loop in {loop for _, loop in calls if loop >= 0}:
            out.update((top, name) for name in in_loop.get(loop, ()))
    return frozenset(out)
