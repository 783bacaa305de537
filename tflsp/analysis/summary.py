"""The module summary: every block's facts combined and resolved.

It answers the questions a single block cannot: what ``tf`` is, which classes are Keras layers
(also through local base classes), and which functions run as a graph (decorated, Keras
methods, Dataset.map/compile arguments, and everything they call in this module).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tflsp.analysis.facts import (
    RESOLVED_PREFIX,
    BlockFacts,
    ClassFacts,
    FunctionFacts,
)
from tflsp.analysis.names import canonical, keras_flavor, resolve_dotted
from tflsp.analysis.reads import ReadLog, TrackedDict, TrackedSet, TrackedTables
from tflsp.analysis.registry import module_facts
from tflsp.analysis.semantic.captures import eager_switches, stale_globals
from tflsp.analysis.semantic.graph import GraphInfo, GraphMap, build_graph
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.saving import SavingFlow, build_saving

TF_FUNCTION = "tensorflow.function"
BlockKey = tuple[str, int]  # a block's head (see the engine) and its occurrence number


@dataclass
class ModuleSummary:
    imports: dict[str, str]
    functions: dict[str, FunctionFacts]
    classes: dict[str, ClassFacts]
    keras_classes: dict[str, str]  # class id -> "layer" | "model" | "module" (tf.Module)
    graph: dict[str, GraphInfo]
    wrapper_decorators: frozenset[str]
    dataset_names: frozenset[str]
    reassigned_globals: frozenset[str]  # module names bound more than once
    features: frozenset[str]  # watched callees present in the module
    # name -> what it was assigned from: canonical callees ("tensorflow.function") or
    # "local:<id>" for classes/functions of this module.  Only resolvable callees are kept.
    assigned: dict[str, frozenset[str]]
    keras_version: int
    keras_flavors: frozenset[str]
    fingerprint: int = field(default=0)
    # Combined module facts registered by detector families (``registry.module_fact``).
    extra: dict[str, object] = field(default_factory=dict)
    # Everything but the tables in ``tracked`` (assignments, dataset names, the graph map),
    # whose reads are recorded per block instead (see :mod:`tflsp.analysis.reads`).
    core_fingerprint: int = field(default=0)
    tracked: TrackedTables | None = field(default=None, repr=False, compare=False)
    model: ModuleModel | None = field(default=None, repr=False, compare=False)
    graph_map: GraphMap | None = field(default=None, repr=False, compare=False)
    # Local class id -> what saving does to it (:mod:`tflsp.analysis.semantic.saving`).
    saving: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    saving_flow: SavingFlow | None = field(default=None, repr=False, compare=False)
    local_bases: frozenset[str] = frozenset()  # local classes other local classes derive from
    # Top-level definition id -> module names its graph code reads that go stale
    # (:mod:`tflsp.analysis.semantic.captures`).
    stale_globals: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # Block identity -> is eager execution switched back off later in the module?
    eager_switches: dict[object, bool] = field(default_factory=dict, repr=False)

    def resolve(self, name: str) -> str | None:
        """Canonical name of a dotted text read by module code at the end of the module
        (``keras = tf.keras`` makes ``keras.models.load_model`` a Keras name)."""
        found = resolve_dotted(name, self.imports)
        if found is not None or self.model is None:
            return found
        head, _, rest = name.partition(".")
        base = qualname_of(self.model.final(head))
        if base is None:
            return None
        return canonical(f"{base}.{rest}" if rest else base)

    def class_kind(self, class_id: str) -> str | None:
        return self.keras_classes.get(class_id)

    def has(self, feature: str) -> bool:
        return feature in self.features

    def holds(self, name: str, *callees: str) -> bool:
        """Was ``name`` assigned from a call of one of ``callees`` somewhere in the module?"""
        return not self.assigned.get(name, frozenset()).isdisjoint(callees)


def _kind_of_base(qualname: str | None) -> str | None:
    if qualname is None:
        return None
    if qualname in ("keras.Model", "keras.Sequential") or qualname.startswith("keras.models."):
        return "model"
    if qualname == "keras.Layer" or qualname.startswith("keras.layers."):
        return "layer"
    if qualname == "tensorflow.Module":
        return "module"
    return None


def decide_keras_version(target: str, flavors: Iterable[str], legacy_env: bool) -> int:
    if target in ("2", "3"):
        return int(target)
    if "tf_keras" in flavors or legacy_env:
        return 2
    return 3


def build_summary(
    facts: Sequence[BlockFacts],
    *,
    keys: Sequence[BlockKey] | None = None,
    target_keras: str = "auto",
    legacy_env: bool = False,
    watched: frozenset[str] = frozenset(),
    previous: ModuleSummary | None = None,
) -> ModuleSummary:
    raw_imports: dict[str, str] = {}
    functions: dict[str, FunctionFacts] = {}
    classes: dict[str, ClassFacts] = {}
    dataset_names: set[str] = set()
    assigned: Counter[str] = Counter()
    called: set[str] = set()
    raw_assignments: list[tuple[str, str]] = []
    for block in facts:
        raw_imports.update(block.imports)
        for fn in block.functions:
            functions[fn.id] = fn
        for cls in block.classes:
            classes[cls.id] = cls
        dataset_names |= block.dataset_names
        assigned.update(block.assigned_globals)
        called |= block.called
        raw_assignments.extend(block.assignments)

    flavors = frozenset(f for f in (keras_flavor(t) for t in raw_imports.values()) if f)
    imports = dict(raw_imports)

    keras_version = decide_keras_version(target_keras, flavors, legacy_env)
    model = ModuleModel(
        [block.semantic for block in facts],
        keras_version=keras_version,
        keys=keys,
        previous=previous.model if previous is not None else None,
    )
    # Keras classes, by value of their bases (aliases and local bases included).
    keras_classes: dict[str, str] = {}
    local_bases: set[str] = set()
    for gid in model.classes:
        kind = model.class_base(gid)
        if kind in ("layer", "model", "module"):
            keras_classes[gid] = kind
        local_bases.update(model.local_bases(gid))

    def resolves_to_tf_function(text: str) -> bool:
        if text.startswith(RESOLVED_PREFIX):
            return text[1:] == TF_FUNCTION
        return resolve_dotted(text, imports) == TF_FUNCTION

    # A local decorator that returns tf.function(...) or a nested tf.function makes a graph too.
    wrappers: set[str] = set()
    for fn in functions.values():
        if fn.parent_id is not None or fn.class_id is not None:
            continue
        for ret in fn.returns:
            nested = functions.get(f"{fn.id}.{ret}")
            if resolves_to_tf_function(ret) or (
                nested is not None and any(resolves_to_tf_function(d) for d in nested.decorators)
            ):
                wrappers.add(fn.id)

    graph_map = build_graph(model)
    graph = dict(graph_map.graph)
    saving_flow = build_saving(model)
    stale: dict[str, set[str]] = {}
    for top, name in stale_globals(model, graph_map):
        stale.setdefault(top, set()).add(name)

    # ".fit" watches a method name on any receiver; anything else is a resolved callee.
    resolved_called: set[str] = set()
    for text in called:
        if not text.startswith("."):
            callee = resolve_dotted(text, imports)
            if callee is not None and callee.startswith("tensorflow.compat.v1."):
                callee = "tensorflow." + callee[len("tensorflow.compat.v1.") :]  # TF1 mode
            if callee is not None:
                resolved_called.add(callee)
    features = frozenset(w for w in watched if w in called or w in resolved_called)

    held: dict[str, set[str]] = {}
    class_names = {cls.name: cls.id for cls in classes.values()}
    for name, callee in raw_assignments:
        if callee in class_names:
            value: str | None = f"local:{class_names[callee]}"
        elif callee in functions:
            value = f"local:{callee}"
        else:
            value = resolve_dotted(callee, imports)
            if value is not None and value.startswith("builtins."):
                value = None
        if value is not None:
            held.setdefault(name, set()).add(value)
    assigned_from = {name: frozenset(values) for name, values in held.items()}

    log = ReadLog()
    tracked_graph = TrackedDict("graph", log, graph)
    tracked_assigned = TrackedDict("assigned", log, assigned_from)
    tracked_datasets = TrackedSet("dataset_names", log, dataset_names)
    tracked_saving = TrackedDict("saving", log, saving_flow.classes)
    tracked_switches = TrackedDict("eager_switches", log, eager_switches(model))
    tracked_stale = TrackedDict(
        "stale_globals", log, {top: frozenset(names) for top, names in stale.items()}
    )
    summary = ModuleSummary(
        imports=imports,
        functions=functions,
        classes=classes,
        keras_classes=keras_classes,
        graph=tracked_graph,
        wrapper_decorators=frozenset(wrappers),
        dataset_names=tracked_datasets,
        reassigned_globals=frozenset(n for n, count in assigned.items() if count > 1),
        features=features,
        assigned=tracked_assigned,
        keras_version=keras_version,
        keras_flavors=flavors,
        model=model,
        graph_map=graph_map,
        saving=tracked_saving,
        saving_flow=saving_flow,
        local_bases=frozenset(local_bases),
        stale_globals=tracked_stale,
        eager_switches=tracked_switches,
    )
    per_block = [dict(block.extra) for block in facts]
    for fact in module_facts():
        summary.extra[fact.name] = fact.combine([b.get(fact.name) for b in per_block], summary)
    tables = TrackedTables(
        log,
        {
            "graph": tracked_graph,
            "assigned": tracked_assigned,
            "dataset_names": tracked_datasets,
            "saving": tracked_saving,
            "stale_globals": tracked_stale,
            "eager_switches": tracked_switches,
        },
        model,
    )
    summary.tracked = tables
    summary.core_fingerprint = hash(
        (
            frozenset(imports.items()),
            frozenset(keras_classes.items()),
            summary.wrapper_decorators,
            summary.reassigned_globals,
            features,
            summary.keras_version,
            flavors,
            frozenset((c.id, c.bases, c.decorators, c.methods) for c in classes.values()),
            frozenset(functions),
            frozenset(summary.extra.items()),
            saving_flow.registers_by_hand,
            summary.local_bases,
        )
    )
    summary.fingerprint = hash(
        (
            summary.core_fingerprint,
            tables.digest("graph"),
            tables.digest("assigned"),
            tables.digest("dataset_names"),
            tables.digest("saving"),
            tables.digest("stale_globals"),
            tables.digest("eager_switches"),
        )
    )
    return summary


def _resolve_function(
    name: str,
    scope: str | None,
    class_id: str | None,
    functions: dict[str, FunctionFacts],
    classes: dict[str, ClassFacts],
    by_name: dict[str, str] | None = None,
) -> str | None:
    """Map a reference (``helper``, ``self.step``) to a function id defined in this module."""
    if name.startswith(("self.", "cls.")):
        method = name.split(".", 2)[1] if name.count(".") == 1 else None
        if method is None or class_id is None:
            return None
        return _find_method(class_id, method, functions, classes, set(), by_name)
    if "." in name:
        return None
    # Innermost enclosing scope first: nested helpers shadow module-level ones.
    while scope:
        candidate = f"{scope}.{name}"
        if candidate in functions:
            return candidate
        scope = scope.rpartition(".")[0] if "." in scope else None
    return name if name in functions else None


def _find_method(
    class_id: str,
    method: str,
    functions: dict[str, FunctionFacts],
    classes: dict[str, ClassFacts],
    seen: set[str],
    by_name: dict[str, str] | None = None,
) -> str | None:
    if class_id in seen:
        return None
    seen.add(class_id)
    candidate = f"{class_id}.{method}"
    if candidate in functions:
        return candidate
    cls = classes.get(class_id)
    if cls is None:
        return None
    if by_name is None:  # callers resolving many names pass it in (built once per summary)
        by_name = {c.name: c.id for c in classes.values()}
    for base in cls.bases:
        base_id = by_name.get(base)
        if base_id is not None:
            found = _find_method(base_id, method, functions, classes, seen, by_name)
            if found is not None:
                return found
    return None
