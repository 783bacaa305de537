"""Which function definitions run as a graph, and why: roots, then the in-module call graph.

Roots: functions a decorator or ``tf.function(f)`` turns into tf.functions; ``call``/
``train_step``/... of Keras layers and models; functions given to ``Dataset.map`` and friends on
a value that is a dataset; losses and metrics given to ``compile``.  Everything a graph function
calls in this module (resolved by value: a later redefinition of a name is another function) is
traced with it, except through the eager escapes: functions handed to ``tf.py_function`` or
``tf.numpy_function`` (or decorated with them) run as Python on every call, and calls inside
``with tf.init_scope():`` or under a test that says the code is not traced
(``if not tf.inside_function():``, :mod:`.traced`) run eagerly.

Keys are module-wide function ids (:mod:`.model`), so two definitions of ``train_step`` in one
notebook are two entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.block import CallSem
from tflsp.analysis.semantic.evaluate import BlockParts
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.semantic.traced import runs_eagerly

# Methods Keras runs as a graph during fit/evaluate/predict.
KERAS_GRAPH_METHODS = frozenset({"call", "train_step", "test_step", "predict_step", "compute_loss"})
# Dataset methods whose function argument is traced once into a graph.
DATASET_FUNCTION_METHODS = frozenset({"map", "filter", "flat_map", "interleave", "reduce", "scan"})
_FUNCTION_KEYWORDS = ("map_func", "predicate", "func", "reduce_func", "scan_func")
EAGER_WRAPPERS = frozenset(
    {"tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.compat.v1.py_func"}
)
INIT_SCOPE = "tensorflow.init_scope"


@dataclass(frozen=True, slots=True)
class GraphInfo:
    """Why a function runs as a graph.

    ``kind``: ``tf.function`` | ``keras`` (Layer.call, train_step, ...) | ``dataset``
    (Dataset.map and friends) | ``compile`` (loss/metric) | ``called`` (called from graph code).
    ``origin`` is the id of the function the chain starts from.
    """

    kind: str
    origin: str


@dataclass(frozen=True)
class GraphMap:
    graph: dict[str, GraphInfo]
    eager: frozenset[str]  # functions that run as Python although graph code calls them
    edges: dict[str, frozenset[str]]  # caller id -> local functions it calls (graph or not)
    # What it was built from (the blocks' roots and edges, the classes stepped by hand): a
    # next model with equal parts gets the same tables back.
    roots: BlockParts | None = field(default=None, compare=False, repr=False)
    stepped: BlockParts | None = field(default=None, compare=False, repr=False)


def function_arguments(call: CallSem) -> list[Term]:
    """The function-like arguments of a call: the first positional one, or a known keyword."""
    found = list(call.args[:1])
    found.extend(t for name, t in call.kwargs if name in _FUNCTION_KEYWORDS)
    return found


def _local_functions(model: ModuleModel, values: v.Values) -> list[str]:
    out = []
    for value in values:
        if value.kind == v.FUNCTION and value.is_local and value.local_id in model.functions:
            out.append(value.local_id)
    return out


def callees(model: ModuleModel, block: int, call: CallSem) -> list[str]:
    """Local functions a call may run: functions, methods, ``__init__`` of a local class,
    ``__call__`` of a local object."""
    out: list[str] = []
    for value in model.value(call.func, block):
        if value.kind == v.FUNCTION and value.is_local:
            out.append(value.local_id)
        elif value.kind == v.CLASS and value.is_local:
            init = model.method(value.local_id, "__init__")
            if init is not None:
                out.append(init)
        elif value.kind == v.INSTANCE and value.is_local:
            for name in ("__call__", "call"):
                method = model.method(value.local_id, name)
                if method is not None:
                    out.append(method)
                    break
    return [gid for gid in out if gid in model.functions]


def in_init_scope(model: ModuleModel, block: int, call: CallSem) -> bool:
    for term in call.withs:
        if term.tag == "call" and qualname_of(model.value(term.args[0], block)) == INIT_SCOPE:
            return True
    return False


_NO_CONTRIBUTION: tuple[
    tuple[tuple[str, GraphInfo], ...], tuple[str, ...], tuple[tuple[str, str], ...]
] = (
    (),
    (),
    (),
)


def build_graph(model: ModuleModel, previous: GraphMap | None = None) -> GraphMap:
    evaluator = model.evaluator
    # One block's roots and call edges, remembered (and carried to the next model while the
    # blocks and names they read are unchanged).
    roots_parts = evaluator.block_parts(
        "graph-block",
        partial(_block_graph, model),
        _NO_CONTRIBUTION,
        previous.roots if previous is not None else None,
    )
    stepped_parts = evaluator.block_parts(
        "stepped-block",
        partial(_block_stepped, model),
        _NOT_STEPPED,
        previous.stepped if previous is not None else None,
    )
    found, stepped = roots_parts.parts, stepped_parts.parts
    if (
        previous is not None
        and model.edited is not None
        and previous.roots is not None
        and previous.stepped is not None
        and _same_parts(previous.roots.parts, found)
        and _same_parts(previous.stepped.parts, stepped)
    ):
        return GraphMap(previous.graph, previous.eager, previous.edges, roots_parts, stepped_parts)
    graph: dict[str, GraphInfo] = {}
    eager: set[str] = set()
    edges: dict[str, set[str]] = {}
    for roots, escapes, calls in found:
        for gid, info in roots:
            graph.setdefault(gid, info)
        eager.update(escapes)
        for caller, callee in calls:
            edges.setdefault(caller, set()).add(callee)
    for gid in eager:
        graph.pop(gid, None)
    for cls in _stepped_by_hand(model, list(stepped)):
        # Only ever stepped by hand from Python (``model.train_step(batch)``), never fitted:
        # its Keras methods run eagerly (a migration guide's debugging loop).
        for gid, info in list(graph.items()):
            entry = model.functions.get(gid)
            if (
                info.kind == "keras"
                and entry is not None
                and entry.facts.class_id is not None
                and model.gid(entry.block, entry.facts.class_id) == cls
            ):
                del graph[gid]
    queue = list(graph)
    while queue:
        current = queue.pop()
        origin = graph[current].origin
        for target in edges.get(current, ()):
            if target not in graph and target not in eager:
                graph[target] = GraphInfo("called", origin)
                queue.append(target)
    return GraphMap(
        graph,
        frozenset(eager),
        {k: frozenset(s) for k, s in edges.items()},
        roots_parts,
        stepped_parts,
    )


def _same_parts(before: tuple[object, ...], now: tuple[object, ...]) -> bool:
    return before is now or (
        len(before) == len(now) and all(a is b or a == b for a, b in zip(before, now, strict=True))
    )


_RUNS_GRAPH = frozenset(
    {"fit", "evaluate", "predict", "train_on_batch", "test_on_batch", "predict_on_batch"}
)
_STEPS = frozenset({"train_step", "test_step", "predict_step"})


_Stepped = tuple[frozenset[str], frozenset[str], bool]  # stepped, fitted, unknown fitted
_NOT_STEPPED: _Stepped = (frozenset(), frozenset(), False)


def _block_stepped(model: ModuleModel, block: int) -> _Stepped:
    model.evaluator.touch(block)
    stepped: set[str] = set()
    fitted: set[str] = set()
    for call in model.blocks[block].calls:
        func = call.func
        if func.tag != "attr" or (func.args[1] not in _STEPS and func.args[1] not in _RUNS_GRAPH):
            continue
        for value in model.value(func.args[0], block):
            if value.kind == v.INSTANCE and value.is_local:
                if func.args[1] in _STEPS:
                    stepped.update(model.mro(value.local_id))
                else:
                    fitted.update(model.mro(value.local_id))
            elif value is v.UNKNOWN and func.args[1] in _RUNS_GRAPH:
                return (frozenset(), frozenset(), True)
    if not stepped and not fitted:
        return _NOT_STEPPED
    return (frozenset(stepped), frozenset(fitted), False)


def _stepped_by_hand(model: ModuleModel, parts: list[_Stepped]) -> set[str]:
    """Local model classes whose steps this module calls directly and never fits."""
    stepped: set[str] = set()
    fitted: set[str] = set()
    for block_stepped, block_fitted, unknown in parts:
        if unknown:
            return set()  # something of unknown kind is fitted: it may be one of them
        stepped |= block_stepped
        fitted |= block_fitted
    return stepped - fitted


def _block_graph(
    model: ModuleModel, block: int
) -> tuple[tuple[tuple[str, GraphInfo], ...], tuple[str, ...], tuple[tuple[str, str], ...]]:
    graph: dict[str, GraphInfo] = {}
    eager: set[str] = set()
    edges: list[tuple[str, str]] = []
    evaluator = model.evaluator
    evaluator.touch(block)  # the answer reads the block's facts, whatever they hold
    facts = model.blocks[block]
    for fn in facts.functions:
        gid = model.gid(block, fn.local_id)
        if fn.decorators:
            flavor = evaluator.function_flavor(gid)
            if flavor == v.TF_FUNCTION:
                graph[gid] = GraphInfo("tf.function", gid)
                continue
            if flavor == v.PY_FUNCTION:
                eager.add(gid)
                continue
        if fn.class_id is not None and fn.name in KERAS_GRAPH_METHODS:
            cls_gid = model.gid(block, fn.class_id)
            if model.class_base(cls_gid) in (v.LAYER, v.MODEL):
                graph[gid] = GraphInfo("keras", gid)
    for call in facts.calls:
        if call.scope is not None and _may_run_local_code(model, block, call.func):
            caller = model.gid(block, call.scope)
            if (
                not call.once
                and not in_init_scope(model, block, call)
                and not (call.guards and runs_eagerly(model, block, call.guards))
            ):
                edges.extend((caller, target) for target in callees(model, block, call))
        if call.args or call.kwargs:
            _roots(model, block, call, call.func, graph, eager)
    return tuple(graph.items()), tuple(sorted(eager)), tuple(edges)


def _may_run_local_code(model: ModuleModel, block: int, func: Term) -> bool:
    """False for calls of library functions (``tf.reduce_sum``): no need to evaluate them."""
    root = func
    while root.tag == "attr":
        root = root.args[0]
    if root.tag == "import":
        return False
    if root.tag in ("entry", "global") and root is not func:
        values = model.value(root, block)
        return not v.all_of(values, lambda x: x.kind == v.NAME)
    return True


_FUNCTION_TAGS = frozenset({"def", "entry", "global", "union", "call", "attr"})


def recursion(graph: GraphMap) -> dict[str, frozenset[str]]:
    """Function id -> the tf.functions it calls back into while being traced with them (the
    tf.function itself, or a helper it reaches)."""
    out: dict[str, set[str]] = {}
    for root, info in graph.graph.items():
        if info.kind != "tf.function" or info.origin != root:
            continue
        seen = {root}
        queue = [root]
        while queue:
            current = queue.pop()
            for target in graph.edges.get(current, ()):
                if target == root:
                    out.setdefault(current, set()).add(root)
                elif target not in seen and target not in graph.eager:
                    seen.add(target)
                    queue.append(target)
    return {caller: frozenset(roots) for caller, roots in out.items()}


def _roots(
    model: ModuleModel,
    block: int,
    call: CallSem,
    func: Term,
    graph: dict[str, GraphInfo],
    eager: set[str],
) -> None:
    """Functions a call turns into graph code (or hands to an eager wrapper)."""
    compiles = func.tag == "attr" and func.args[1] == "compile"
    if not compiles and not any(t.tag in _FUNCTION_TAGS for t in function_arguments(call)):
        return
    if func.tag == "attr":
        method = func.args[1]
        if method in DATASET_FUNCTION_METHODS:
            receiver = model.value(func.args[0], block)
            if v.all_of(receiver, lambda x: x.kind == v.DATASET):
                for term in function_arguments(call):
                    for gid in _local_functions(model, model.value(term, block)):
                        graph.setdefault(gid, GraphInfo("dataset", gid))
            return
        if method == "compile":
            receiver = model.value(func.args[0], block)
            if receiver and not any(
                x is v.UNKNOWN or (x.kind == v.INSTANCE and x.base == v.MODEL) for x in receiver
            ):
                return  # known not to be a Keras model
            for name, term in call.kwargs:
                if name in ("loss", "metrics", "weighted_metrics"):
                    for gid in _local_functions(model, _elements(model, term, block)):
                        graph.setdefault(gid, GraphInfo("compile", gid))
            return
    name = qualname_of(model.value(func, block))
    if name == "tensorflow.function":
        for term in function_arguments(call):
            for gid in _local_functions(model, model.value(term, block)):
                graph.setdefault(gid, GraphInfo("tf.function", gid))
    elif name in EAGER_WRAPPERS:
        for term in function_arguments(call):
            eager.update(_local_functions(model, model.value(term, block)))


def _elements(model: ModuleModel, term: Term, block: int) -> v.Values:
    """A keyword's value, or the values inside a list/tuple/dict literal given to it."""
    if term.tag in ("list", "tuple", "set"):
        return v.join(model.value(t, block) for t in term.args[0])
    if term.tag == "dict":
        return v.join(model.value(t, block) for t in term.args[1])
    return model.value(term, block)
