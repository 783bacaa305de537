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
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import detector, module_fact
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
    return [
        call
        for call in index.nodes(ast.Call)
        if isinstance(call.func, ast.Attribute)
        and call.func.attr == "load_weights"
        and isinstance(call.func.value, ast.Name)
    ]


def _extract(index: NodeIndex) -> Hashable:
    """Only the names that matter here are followed in detail: module names this statement
    creates from a call, and names loaded into (a function's own names: only those).  For the
    other blocks, the names their calls may build (:func:`_touched`) are enough."""
    loads = _loads(index)
    touched, touched_later = _touched(index)
    classes = index.nodes(ast.ClassDef)
    semantics = semantics_of(index) if loads or classes else None
    builds = (
        tuple(semantics.local_id(cls) for cls in classes if _builds_itself(cls))
        if semantics is not None
        else ()
    )
    loaded = {(index.enclosing_function(c), c.func.value.id) for c in loads}  # type: ignore[attr-defined]
    names = {name for _, name in loaded}
    for assign in index.nodes(ast.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if isinstance(target, ast.Name) and isinstance(assign.value, ast.Call):
            fn = index.enclosing_function(assign)
            if fn is None or (fn, target.id) in loaded:
                names.add(target.id)
    if not names:
        if builds or touched or touched_later:
            return WeightFacts((), builds, touched, touched_later)
        return None
    semantics = semantics or semantics_of(index)
    terms = semantics.terms
    events: list[tuple[tuple[int, int], Event]] = []
    load_sites = {id(call.func.value): site for site, call in enumerate(loads)}  # type: ignore[attr-defined]
    for node in index.nodes(ast.Name):
        if node.id not in names:
            continue
        fn = index.enclosing_function(node)
        if fn is not None and (fn, node.id) not in loaded:
            continue  # a function's use of a module name: _touched() covers it
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
        elif id(node) in load_sites:
            call = index.parent(parent) if parent is not None else None
            path = call.args[0] if isinstance(call, ast.Call) and call.args else None
            if isinstance(call, ast.Call) and path is None:
                path = next((k.value for k in call.keywords if k.arg == "filepath"), None)
            term = terms.expr(path) if path is not None else None
            events.append((where, Event(scope, node.id, "load", term, load_sites[id(node)])))
        elif _builds(node, parent, index):
            events.append((where, Event(scope, node.id, "touch")))
    events.sort(key=lambda pair: pair[0])
    return WeightFacts(tuple(e for _, e in events), builds, touched, touched_later)


def _touched(index: NodeIndex) -> tuple[frozenset[str], frozenset[str]]:
    here: set[str] = set()
    later: set[str] = set()
    for call in index.nodes(ast.Call):
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
            (here if index.enclosing_function(call) is None else later).update(found)
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


def _builds_itself(cls: ast.ClassDef) -> bool:
    for item in cls.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if item.name == "load_weights":
            return True
        if item.name != "__init__":
            continue
        for node in ast.walk(item):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "self":
                return True
            if not isinstance(func, ast.Attribute):
                continue
            if (
                func.attr == "build"
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
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


module_fact(FACT, _extract, _combine, reads_values=True)


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
