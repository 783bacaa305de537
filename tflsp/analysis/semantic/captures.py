"""Module names that go stale for graph code: rebound after a trace, then used by a later call.

A tf.function freezes the Python values it reads when it is traced.  Reading a module name is a
pitfall only when the name is bound again *between* a call that traces the graph and a later
call that reuses the trace (or in a loop that also calls it), or when another function writes
it through ``global`` (a setter that runs at any time, also from other modules; a tf.function
that does so stores a tensor of its own graph, which any graph code traced later captures).
Calls are resolved by value in module order, so a notebook that redefines ``train_step`` per
section calls each definition only where it is defined; running a Keras model (calling it,
``fit``, ``predict``...) runs its graph methods, and ``fit``/``predict``... of a functional or
Sequential model those of the local layers it holds.  Building a functional model (a layer
called on a KerasTensor) traces nothing a later call reuses.

The answer is per top-level definition: ``(top-level id, name)`` pairs.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import compress

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.evaluate import BlockParts
from tflsp.analysis.semantic.graph import GraphMap, callees
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

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
_TRACES_MODEL = _RUNS_MODEL - {"__call__"}
_KERAS_GRAPH = ("call", "train_step", "test_step", "predict_step", "compute_loss")


def _started(model: ModuleModel, block: int, index: int) -> tuple[str, ...]:
    """Local functions a module-level call starts directly."""
    model.evaluator.touch(block)
    call = model.blocks[block].calls[index]
    out = set(callees(model, block, call))
    if out and call.args and _symbolic(model, block, call.args[0]):
        # Building a functional model: the layer's call runs once on KerasTensors, and no
        # later call reuses that run (an eager call runs it again, fit/predict trace anew).
        return ()
    func = call.func
    if func.tag == "attr" and func.args[1] in _RUNS_MODEL:
        for value in model.value(func.args[0], block):
            if value.kind != v.INSTANCE:
                continue
            classes = {value.local_id} if value.is_local else set()
            if func.args[1] in _TRACES_MODEL:
                # fit/predict/... trace the graph of every local layer the model was built
                # from (a functional or Sequential model holds them).
                classes.update(c for c in value.contents if c in model.classes)
            for cls in classes:
                for name in _KERAS_GRAPH:
                    method = model.method(cls, name)
                    if method is not None:
                        out.add(method)
    return tuple(sorted(out))


def _symbolic(model: ModuleModel, block: int, term: Term) -> bool:
    return v.all_of(model.value(term, block), lambda x: x.kind == v.KERAS_TENSOR)


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
    # Most blocks switch nothing: only the few that do are looked at.
    found_in = compress(range(len(parts.parts)), parts.parts)
    switches = [(block, on) for block in found_in for on in parts.parts[block]]
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


# Where module code binds a name: (position, module-level loop it is bound in, if any).
_Binding = tuple[Position, "tuple[int, int] | None"]
# Per traced top-level definition: its first and last call, and the loops it is called in.
_Span = tuple[Position, Position, frozenset[tuple[int, int]]]


@dataclass(frozen=True)
class StaleGlobals:
    """``(top-level id, name)`` pairs, with what they were computed from."""

    pairs: frozenset[tuple[str, str]]
    events: BlockParts | None = None
    graph: GraphMap | None = None
    writers: tuple[dict[str, set[str]], frozenset[tuple[str, str]]] | None = None
    # The pieces of ``pairs``: those ``global`` writers make stale, and per name rebound at
    # module level the definitions it goes stale for; with the bindings and spans they come
    # from, for a next model whose blocks differ only in what they bind.
    written: frozenset[tuple[str, str]] = frozenset()
    rebound: dict[str, frozenset[str]] | None = None
    bindings: dict[str, list[_Binding]] | None = None
    spans: dict[str, _Span] | None = None


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
        and previous.graph is not None
        and (previous.graph.graph is graph.graph or previous.graph.graph == graph.graph)
        and (previous.graph.edges is graph.edges or previous.graph.edges == graph.edges)
        and previous.writers == writers
    ):
        before = previous.events.parts
        if before == events.parts:
            return replace(previous, events=events, graph=graph)
        found = _rebind(previous, before, events.parts)
        if found is not None:
            return replace(found, events=events, graph=graph, writers=writers)
    traces, runs, bindings = _scan(model, graph, events.parts)
    spans = _spans(traces)
    written = _written(model, graph, traces, runs, lazy)
    rebound = _rebound(spans, bindings)
    return StaleGlobals(
        _union(written, rebound), events, graph, writers, written, rebound, bindings, spans
    )


def _rebind(
    previous: StaleGlobals,
    before: tuple[tuple[_Event, ...], ...],
    now: tuple[tuple[_Event, ...], ...],
) -> StaleGlobals | None:
    """The previous answer updated for blocks that changed only in what they bind (typing an
    assignment at module level): no call moved, so only the names they bind are looked at
    again.  None when a changed block starts a local function (before or now)."""
    if previous.rebound is None or previous.bindings is None or previous.spans is None:
        return None
    changed = [k for k, (a, b) in enumerate(zip(before, now, strict=True)) if a is not b and a != b]
    names: set[str] = set()
    for k in changed:
        for kind, item, _ in (*before[k], *now[k]):
            if kind != "bind":
                return None
            names.add(str(item))
    edited = set(changed)
    bindings = dict(previous.bindings)
    for name in names:
        kept = [b for b in bindings.get(name, ()) if b[0][0] not in edited]
        kept.extend(
            ((k, number), (k, loop) if loop >= 0 else None)
            for k in changed
            for number, (_, item, loop) in enumerate(now[k])
            if item == name
        )
        if kept:
            bindings[name] = sorted(kept, key=lambda b: b[0])
        else:
            bindings.pop(name, None)
    rebound = dict(previous.rebound)
    for name in names:
        tops = _rebound_name(previous.spans, bindings.get(name, ()))
        if tops:
            rebound[name] = tops
        else:
            rebound.pop(name, None)
    pairs = _union(previous.written, rebound)
    return replace(previous, pairs=pairs, rebound=rebound, bindings=bindings)


def _union(
    written: frozenset[tuple[str, str]], rebound: dict[str, frozenset[str]]
) -> frozenset[tuple[str, str]]:
    return written.union((top, name) for name, tops in rebound.items() for top in tops)


def _scan(
    model: ModuleModel, graph: GraphMap, parts: tuple[tuple[_Event, ...], ...]
) -> tuple[
    dict[str, list[tuple[Position, tuple[int, int] | None]]],
    dict[str, list[Position]],
    dict[str, list[_Binding]],
]:
    """Where module code traces each top-level definition's graph code (and in which loop),
    where it runs each function, and where it binds each name."""
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

    traces: dict[str, list[tuple[Position, tuple[int, int] | None]]] = {}
    runs: dict[str, list[Position]] = {}  # function id -> where module code runs it
    bindings: dict[str, list[_Binding]] = {}
    functions = model.functions
    for block, block_events in enumerate(parts):
        for number, (kind, item, loop) in enumerate(block_events):
            where = (block, number)
            # A loop is told apart by its block and its number there: a loop typed in one
            # block leaves the others' alone.
            loop_key = (block, loop) if loop >= 0 else None
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
    return traces, runs, bindings


def _spans(traces: dict[str, list[tuple[Position, tuple[int, int] | None]]]) -> dict[str, _Span]:
    return {
        top: (
            min(p for p, _ in calls),
            max(p for p, _ in calls),
            frozenset(loop for _, loop in calls if loop is not None),
        )
        for top, calls in traces.items()
    }


def _written(
    model: ModuleModel,
    graph: GraphMap,
    traces: dict[str, list[tuple[Position, tuple[int, int] | None]]],
    runs: dict[str, list[Position]],
    lazy: frozenset[tuple[str, str]],
) -> frozenset[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for top in {gid.split(".", 1)[0] for gid in graph.graph}:
        calls = traces.get(top, [])
        first = min((p for p, _ in calls), default=None)
        last = max((p for p, _ in calls), default=None)
        # ``global g`` writes from other functions: stale when one of them runs between two
        # calls of the graph code (or at any time, when nothing here traces it).  A function
        # that sets up its own state (``if g is None: g = ...``) does not count.  Nor, when
        # nothing here traces the graph code, does another function that only creates the
        # name once (the same guard): a lazy initialiser, run before the first use.  A writer
        # that is graph code itself stores a tensor of its own trace: graph code traced after
        # it ran captures a tensor leaked from another graph (it raises), whatever the order.
        for name, ids in model.global_writers.items():
            others = [w for w in ids if w.split(".", 1)[0] != top]
            if first is None:
                others = [w for w in others if (name, w) not in lazy]
            if others and (
                first is None
                or any(first < p < last for w in others for p in runs.get(w, ()))  # type: ignore[operator]
                or any(p < last for w in others if w in graph.graph for p in runs.get(w, ()))  # type: ignore[operator]
            ):
                out.add((top, name))
    return frozenset(out)


def _rebound(
    spans: dict[str, _Span], bindings: dict[str, list[_Binding]]
) -> dict[str, frozenset[str]]:
    """Name -> the traced definitions it goes stale for: bound again between their first and
    last call, or in a module-level loop that calls them."""
    # Names bound once never change.  The others, by where they are bound (positions in
    # module order, for a range search per traced definition) and by module-level loop.
    placed: list[tuple[Position, str]] = []
    in_loop: dict[tuple[int, int], set[str]] = {}
    for name, found in bindings.items():
        if not _rebinds(found):
            continue
        for where, loop in found:
            placed.append((where, name))
            if loop is not None:
                in_loop.setdefault(loop, set()).add(name)
    placed.sort()
    wheres = [where for where, _ in placed]
    out: dict[str, set[str]] = {}
    for top, (first, last, loops) in spans.items():
        start = bisect.bisect_right(wheres, first)
        end = bisect.bisect_left(wheres, last)
        for _, name in placed[start:end]:
            out.setdefault(name, set()).add(top)
        for loop in loops:
            for name in in_loop.get(loop, ()):
                out.setdefault(name, set()).add(top)
    return {name: frozenset(tops) for name, tops in out.items()}


def _rebinds(found: Sequence[_Binding]) -> bool:
    return len(found) >= 2 or bool(found and found[0][1] is not None)


def _rebound_name(spans: dict[str, _Span], found: Sequence[_Binding]) -> frozenset[str]:
    """:func:`_rebound` for one name (``found``: where it is bound, in module order)."""
    if not _rebinds(found):
        return frozenset()
    wheres = [where for where, _ in found]
    loops = {loop for _, loop in found if loop is not None}
    return frozenset(
        top
        for top, (first, last, top_loops) in spans.items()
        if bisect.bisect_left(wheres, last) > bisect.bisect_right(wheres, first)
        or not loops.isdisjoint(top_loops)
    )
