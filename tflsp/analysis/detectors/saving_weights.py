"""Save/load family: load_weights() into a model that has no variables yet (TFL410).

A subclassed Keras model creates its variables on its first call (or ``build()``), so
``Regressor().load_weights(path)`` has nothing to load into: Keras 3 raises, and tf-keras
raises for ``.h5`` files (a TensorFlow checkpoint is restored later, when the variables
appear).  A module fact follows each name through the module's statements in order (module
code is one block per statement): a ``load_weights()`` on a name whose last event is its
creation from a local ``keras.Model`` subclass, or from a ``keras.Sequential`` whose first layer
does not know the input shape, is reported.  Any other use of the name in
between (a call, ``build()``, ``fit()``, passing it somewhere) may build it: silent.  So is a
class whose ``__init__`` builds the model itself (``self.build(...)``, ``self(...)``, a
functional ``super().__init__(inputs, outputs)``), or that defines its own ``load_weights``.
Only the names a block creates or loads are followed in detail; for the statements in between
and the module's functions, each block keeps the names its calls may build (``m(x)``,
``m.fit()``, ``f(m)``), so the fact costs little on statements that have nothing to do with
weights.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

from tflsp.analysis.context import BlockContext
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import FunctionNode, NodeIndex
from tflsp.analysis.method_parts import NO_METHODS, MethodBody, Pieces, lambda_lines
from tflsp.analysis.registry import ByMethod, detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import qualname_of
from tflsp.analysis.semantic.terms import Term

FACT = "saving.unbuilt_loads"
SEQUENTIAL = "keras.Sequential"
INPUTS = frozenset({"keras.Input", "keras.layers.Input", "keras.layers.InputLayer"})
SHAPE_KEYWORDS = frozenset({"input_shape", "input_dim", "batch_input_shape", "batch_shape"})
# Methods that do not create variables: calling them between creation and load changes nothing.
_NOT_BUILDING = frozenset({"compile", "get_config", "count_params"})


@dataclass(frozen=True, slots=True)
class Event:
    scope: str | None
    name: str
    kind: str  # create | touch | load
    term: Term | None = None  # create: the value; load: the path
    site: int = -1  # load: position among the block's load_weights() calls


@dataclass(frozen=True, slots=True)
class WeightFacts:
    # Events of the names this block creates from a call (module code) or loads into.
    events: tuple[Event, ...]
    builds_itself: tuple[str, ...]  # local ids of classes that build (or load) themselves
    # Names a call of the block may build: ``m(x)``, ``m.fit()``, ``f(m)``; in module code,
    # and in functions (which may run at any time).
    touched: frozenset[str] = frozenset()
    touched_later: frozenset[str] = frozenset()


def _loads(index: NodeIndex) -> list[ast.Call]:
    return _loads_in(index.nodes(ast.Call))


def _loads_in(calls: Sequence[ast.Call]) -> list[ast.Call]:
    return [
        call
        for call in calls
        if isinstance(call.func, ast.Attribute)
        and call.func.attr == "load_weights"
        and isinstance(call.func.value, ast.Name)
    ]


def _loaded_name(call: ast.Call) -> str:
    return call.func.value.id  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class _MethodPart:
    """What a method's body gives (see :func:`_part`)."""

    # Its events in order: a load's site counted among the body's loads, a lambda's line (in
    # an event's scope) from the method's first line.
    events: tuple[Event, ...]
    loads: int  # its load_weights() calls
    loaded: frozenset[str]  # the names they load into
    own: frozenset[str]  # ... those the method itself loads into (not a def or lambda in it)
    init_builds: bool  # an ``__init__`` that builds the model itself
    touched_later: frozenset[str]  # names its calls may build (a function: they run later)


def _extract(index: NodeIndex) -> Hashable:
    """Only the names that matter here are followed in detail: module names this statement
    creates from a call, and names loaded into (a function's own names: only those).  For the
    other blocks, the names their calls may build (:func:`_touched_in`) are enough."""
    return _whole(index, NO_METHODS)


def _part(body: MethodBody) -> _MethodPart | None:
    """A method's body: the names its functions load into are followed there, from its own
    syntax (the loads in its header are the method's too) and the terms of its body.  A
    method with a class in its body is left to ``whole``: the names of a class body count as
    the module's, which any statement of the block may load into."""
    index, method = body.index, body.node
    if body.nodes(ast.ClassDef):
        return None
    calls = body.nodes(ast.Call)
    loads = _loads_in(calls)
    header = _loads_in(body.header(ast.Call))
    loaded = {(index.enclosing_function(c), _loaded_name(c)) for c in (*header, *loads)}
    events: tuple[Event, ...] = ()
    if loaded:
        # Every name of the body is in a function (no class in it): followed where loaded.
        names = {name for _, name in loaded}
        sites = {id(call.func.value): site for site, call in enumerate(loads)}  # type: ignore[attr-defined]
        found = _events(index, body.nodes(ast.Name), names, loaded, sites)
        events = tuple(_moved(event, 0, -body.head) for event in found)
    return _MethodPart(
        events,
        len(loads),
        frozenset(_loaded_name(c) for c in loads),
        frozenset(_loaded_name(c) for c in loads if index.enclosing_function(c) is method),
        method.name == "__init__" and _init_builds(method),
        # Every call of the body is in a function (no class in it): it runs later.
        _touched_in(index, calls, in_function=True)[1],
    )


def _whole(index: NodeIndex, pieces: Pieces[_MethodPart]) -> Hashable:
    calls = index.nodes(ast.Call)
    loads, sites, offsets = _outside_loads(calls, pieces)
    touched, touched_later = _touched_in(index, pieces.outside(calls))
    classes = index.nodes(ast.ClassDef)  # all outside: a method with a class has no piece
    semantics = semantics_of(index) if loads or classes else None
    inits = {piece.node: piece.part.init_builds for piece in pieces.pieces} if pieces.pieces else {}
    builds = (
        tuple(semantics.local_id(cls) for cls in classes if _builds_itself(cls, inits))
        if semantics is not None
        else ()
    )
    loaded = {(index.enclosing_function(c), _loaded_name(c)) for c in loads}
    names = {name for _, name in loaded}
    for method in pieces.pieces:
        touched_later |= method.part.touched_later
        loaded.update((method.node, name) for name in method.part.own)
        names |= method.part.loaded
    for assign in pieces.outside(index.nodes(ast.Assign)):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if isinstance(target, ast.Name) and isinstance(assign.value, ast.Call):
            fn = index.enclosing_function(assign)
            if fn is None or (fn, target.id) in loaded:
                names.add(target.id)
    if not names:
        if builds or touched or touched_later:
            return WeightFacts((), builds, touched, touched_later)
        return None
    if not pieces.pieces:
        events = _events(index, index.nodes(ast.Name), names, loaded, sites)
        return WeightFacts(tuple(events), builds, touched, touched_later)
    events = []
    # Every event of a stretch happens in it: sorted stretch by stretch, they come in the
    # order one sort gives.
    for piece, run in pieces.cut(index.nodes(ast.Name)):
        if piece is None:
            events.extend(_events(index, run, names, loaded, sites))
        else:
            offset = offsets[piece.node]
            events.extend(_moved(event, offset, piece.head) for event in piece.part.events)
    return WeightFacts(tuple(events), builds, touched, touched_later)


def _outside_loads(
    calls: Sequence[ast.Call], pieces: Pieces[_MethodPart]
) -> tuple[list[ast.Call], dict[int, int], dict[ast.AST, int]]:
    """The loads outside the methods' bodies, their sites (by receiver) among all of the
    block's loads, and where each method's sites begin."""
    if not pieces.pieces:
        loads = _loads_in(calls)
        if not loads:
            return loads, {}, {}
        return loads, {id(call.func.value): k for k, call in enumerate(loads)}, {}  # type: ignore[attr-defined]
    loads = []
    sites: dict[int, int] = {}
    offsets: dict[ast.AST, int] = {}
    count = 0
    for piece, run in pieces.cut(calls):
        if piece is not None:
            offsets[piece.node] = count
            count += piece.part.loads
            continue
        for call in _loads_in(run):
            sites[id(call.func.value)] = count  # type: ignore[attr-defined]
            count += 1
            loads.append(call)
    return loads, sites, offsets


def _events(
    index: NodeIndex,
    nodes: Sequence[ast.Name],
    names: set[str],
    loaded: Collection[tuple[ast.AST | None, str]],
    sites: dict[int, int],
) -> list[Event]:
    """The events of the followed ``names`` among ``nodes``, in the order they happen."""
    terms = semantics_of(index).terms
    events: list[tuple[tuple[int, int], Event]] = []
    for node in nodes:
        if node.id not in names:
            continue
        fn = index.enclosing_function(node)
        if fn is not None and (fn, node.id) not in loaded:
            continue  # a function's use of a module name: _touched_in() covers it
        scope = index.scope_id(fn) if fn is not None else None
        parent = index.parent(node)
        where = (node.lineno, node.col_offset)
        if isinstance(node.ctx, ast.Store):
            value = (
                parent.value
                if isinstance(parent, ast.Assign) and parent.targets == [node]
                else None
            )
            if isinstance(value, ast.Call):
                # The name is bound once the call has run: ``m = M(m)`` reads the old ``m``.
                where = (value.end_lineno or node.lineno, value.end_col_offset or 0)
                events.append((where, Event(scope, node.id, "create", terms.expr(value))))
            else:
                events.append((where, Event(scope, node.id, "touch")))
        elif id(node) in sites:
            call = index.parent(parent) if parent is not None else None
            path = call.args[0] if isinstance(call, ast.Call) and call.args else None
            if isinstance(call, ast.Call) and path is None:
                path = next((k.value for k in call.keywords if k.arg == "filepath"), None)
            term = terms.expr(path) if path is not None else None
            events.append((where, Event(scope, node.id, "load", term, sites[id(node)])))
        elif _builds(node, parent, index):
            events.append((where, Event(scope, node.id, "touch")))
    events.sort(key=_when)
    return [event for _, event in events]


def _when(found: tuple[tuple[int, int], Event]) -> tuple[int, int]:
    return found[0]


def _moved(event: Event, sites: int, lines: int) -> Event:
    """``event`` with its load's site moved by ``sites`` and its lambdas by ``lines``."""
    site = event.site + sites if event.kind == "load" else event.site
    scope = lambda_lines(event.scope, lines) if event.scope is not None else None
    if site == event.site and scope == event.scope:
        return event
    return replace(event, site=site, scope=scope)


def _touched_in(
    index: NodeIndex, calls: Sequence[ast.Call], *, in_function: bool = False
) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``calls`` may build (``m(x)``, ``m.fit()``, ``f(m)``): in module code (or a
    class body), and in functions; ``in_function``: every call is in one."""
    here: set[str] = set()
    later: set[str] = set()
    for call in calls:
        found: list[str] = []
        func = call.func
        if isinstance(func, ast.Name):
            found.append(func.id)
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.attr not in _NOT_BUILDING
            and func.attr != "load_weights"
        ):
            found.append(func.value.id)
        found.extend(a.id for a in call.args if isinstance(a, ast.Name))
        found.extend(k.value.id for k in call.keywords if isinstance(k.value, ast.Name))
        if found:
            late = in_function or index.enclosing_function(call) is not None
            (later if late else here).update(found)
    return frozenset(here), frozenset(later)


def _builds(node: ast.Name, parent: ast.AST | None, index: NodeIndex) -> bool:
    """May this use of a name build the model it holds?  ``m.weights`` and ``m.layers`` do
    not; ``m(x)``, ``m.build()``, ``m.fit()``, ``f(m)`` may (compile() and get_config() not)."""
    if not isinstance(node.ctx, ast.Load):
        return False
    if isinstance(parent, ast.Attribute):
        called = index.parent(parent)
        return (
            isinstance(called, ast.Call)
            and called.func is parent
            and parent.attr not in _NOT_BUILDING
        )
    return True


def _builds_itself(cls: ast.ClassDef, inits: Mapping[FunctionNode, bool]) -> bool:
    """``inits``: what :func:`_init_builds` found for the ``__init__`` methods with a part."""
    for item in cls.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if item.name == "load_weights":
            return True
        if item.name != "__init__":
            continue
        known = inits.get(item)
        if known if known is not None else _init_builds(item):
            return True
    return False


def _init_builds(item: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An ``__init__`` that builds the model: ``self(...)``, ``self.build(...)``, or a
    functional ``super().__init__(inputs, outputs)``."""
    for node in ast.walk(item):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "self":
            return True
        if not isinstance(func, ast.Attribute):
            continue
        if func.attr == "build" and isinstance(func.value, ast.Name) and func.value.id == "self":
            return True
        if func.attr == "__init__" and (
            node.args or any(k.arg in ("inputs", "outputs") for k in node.keywords)
        ):
            return True  # a functional model built in the subclass's __init__
    return False


def _combine(values: Sequence[Hashable], summary: object) -> Hashable:
    model = getattr(summary, "model", None)
    if model is None:
        return None
    keras3 = getattr(summary, "keras_version", 3) == 3
    building: set[str] = set()
    for block, found in enumerate(values):
        if isinstance(found, WeightFacts):
            building.update(model.gid(block, local) for local in found.builds_itself)
    last: dict[tuple[str | None, str], tuple[int, Event]] = {}
    findings: list[tuple[int, int, str]] = []
    for block, found in enumerate(values):
        if not isinstance(found, WeightFacts):
            continue
        for event in found.events:
            # Names inside a function only meet the events of that function (one block).
            key = (event.scope if event.scope is None else f"{block}:{event.scope}", event.name)
            previous = last.get(key)
            last[key] = (block, event)
            if event.kind != "load" or previous is None or previous[1].kind != "create":
                continue
            created_in = previous[0]
            if event.scope is None and _used_elsewhere(values, event.name, created_in, block):
                continue
            created = previous[1].term
            if created is None or not _unbuilt(model, created, created_in, building):
                continue
            if not keras3 and not _h5_path(model, event.term, block):
                continue
            findings.append((block, event.site, event.name))
    return tuple(findings) or None


def _used_elsewhere(values: Sequence[Hashable], name: str, first: int, last: int) -> bool:
    """A call that may build the module name's model, in a statement between its creation
    and the load, or in a function of the module (which may run in between)."""
    for number, found in enumerate(values):
        if not isinstance(found, WeightFacts) or number in (first, last):
            continue
        if name in found.touched_later or (first < number < last and name in found.touched):
            return True
    return False


def _unbuilt(model: object, term: Term, block: int, building: set[str]) -> bool:
    values = model.value(term, block)  # type: ignore[attr-defined]
    if v.all_of(values, lambda x: x.kind == v.INSTANCE and x.ref == SEQUENTIAL):
        return _sequential_without_input(model, term, block)

    def lazy(x: v.Value) -> bool:
        if not (x.kind == v.INSTANCE and x.base == v.MODEL and x.is_local):
            return False
        pending, seen = [x.local_id], set()
        while pending:
            gid = pending.pop()
            if gid in seen:
                continue
            seen.add(gid)
            if gid in building:
                return False
            pending.extend(model.local_bases(gid))  # type: ignore[attr-defined]
        return True

    return v.all_of(values, lazy)


def _sequential_without_input(model: object, term: Term, block: int) -> bool:
    """``Sequential([Dense(4), Dense(1)])`` (or ``Sequential()``): no layer knows the input
    shape, so nothing is built.  A list we cannot read, or a first layer that is not a
    constructor call, is unknown: not reported."""
    if term.tag != "call" or qualname_of(model.value(term.args[0], block)) != SEQUENTIAL:  # type: ignore[attr-defined]
        return False  # ``make_model()``: what the function's layers are is not read here
    args, kwargs = term.args[1], dict(term.args[2])
    layers = args[0] if args else kwargs.get("layers")
    if layers is None:
        return True
    if layers.tag not in ("list", "tuple"):
        return False
    if not layers.args[0]:
        return True
    first = layers.args[0][0]
    if first.tag != "call":
        return False
    name = qualname_of(model.value(first.args[0], block))  # type: ignore[attr-defined]
    if name is None or name in INPUTS:
        return False
    return not any(key in SHAPE_KEYWORDS for key, _ in first.args[2])


def _h5_path(model: object, term: Term | None, block: int) -> bool:
    if term is None:
        return False
    values = model.value(term, block)  # type: ignore[attr-defined]

    def h5(x: v.Value) -> bool:
        text = x.const if isinstance(x.const, str) else x.base
        return x.kind in (v.STR, v.PATH) and bool(text) and text.endswith((".h5", ".hdf5"))

    return v.all_of(values, h5)


# The header of a method runs in the class body: left to ``whole``.
module_fact(FACT, _extract, _combine, reads_values=True, by_method=ByMethod(_part, _whole))


@detector("TFL410")
def load_weights_unbuilt(ctx: BlockContext) -> None:
    fact = ctx.summary.extra.get(FACT)
    if not isinstance(fact, tuple):
        return
    loads: list[ast.Call] | None = None
    for block, site, name in fact:
        if block != ctx.ordinal:
            continue
        if loads is None:
            loads = _loads(ctx.index)
        if site < len(loads):
            ctx.report("TFL410", loads[site], args={"model": name})
