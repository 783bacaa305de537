"""The module summary: every block's facts combined and resolved.

It answers the questions a single block cannot, from the semantic model
(:mod:`tflsp.analysis.semantic`): what ``tf`` is, which classes are Keras layers (through
aliases and local bases), which function definitions run as a graph, which objects reach which
save and load, which module names go stale for graph code.

Tables whose entries change while typing inside functions are :class:`TrackedDict` s: a block's
cached findings are reused while the entries it read keep their values
(:mod:`tflsp.analysis.reads`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from operator import attrgetter, is_not
from typing import Any, TypeVar

from tflsp.analysis.facts import BlockFacts, ClassFacts, FunctionFacts
from tflsp.analysis.names import canonical, keras_flavor, resolve_dotted
from tflsp.analysis.reads import ReadLog, TrackedDict, TrackedTables
from tflsp.analysis.registry import ModuleFact
from tflsp.analysis.semantic.captures import StaleGlobals, eager_switches, stale_globals
from tflsp.analysis.semantic.evaluate import Atom, BlockParts, Evaluator
from tflsp.analysis.semantic.graph import GraphInfo, GraphMap, build_graph, recursion
from tflsp.analysis.semantic.imports import ImportedNames
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.saving import SavingFlow, build_saving

T = TypeVar("T")

BlockKey = tuple[str, int]  # a block's head (see the engine) and its occurrence number

# Atoms module facts' memo entries read (:meth:`ModuleSummary.remember`), besides blocks and
# names through the model: the imports with the Keras version and flavours, the local classes'
# ids and names with their Keras kinds and local bases, and a block's extracted value of one
# module fact (``(EXTRA, fact name, block)``).
IMPORTS: Atom = ("summary-imports",)
CLASSES: Atom = ("summary-classes",)
EXTRA = "extra"

__all__ = ["BlockKey", "GraphInfo", "ModuleSummary", "build_summary", "decide_keras_version"]


@dataclass
class ModuleSummary:
    imports: dict[str, str]
    functions: dict[str, FunctionFacts]
    classes: dict[str, ClassFacts]
    keras_classes: dict[str, str]  # class id -> "layer" | "model" | "module" (tf.Module)
    graph: dict[str, GraphInfo]  # function id -> why it runs as a graph
    features: frozenset[str]  # watched callees present in the module
    keras_version: int
    keras_flavors: frozenset[str]
    fingerprint: int = field(default=0)
    # Combined module facts registered by detector families (``registry.module_fact``).
    extra: dict[str, object] = field(default_factory=dict)
    # Everything but the tables in ``tracked`` and the semantic facts of the blocks, whose
    # reads are recorded per block instead (see :mod:`tflsp.analysis.reads`).
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
    # Function id -> tf.functions it re-enters while being traced with them (TFL114).
    recursion: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # What the next summary may reuse: the block facts this one was built from, and per
    # combined module fact the module names its combine resolved through the model.
    block_facts: tuple[BlockFacts, ...] = field(default=(), repr=False, compare=False)
    switch_parts: BlockParts | None = field(default=None, repr=False, compare=False)
    stale_flow: StaleGlobals | None = field(default=None, repr=False, compare=False)
    extra_deps: dict[str, tuple[tuple[object, ...], frozenset[Atom]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    # Answers detectors derive from the module-wide tables above, computed once per summary
    # instead of once per block (see :meth:`derived`).
    memo: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def resolve(self, name: str) -> str | None:
        """Canonical name of a dotted text read by module code at the end of the module
        (``keras = tf.keras`` makes ``keras.models.load_model`` a Keras name)."""
        self.reads_imports()
        found = resolve_dotted(name, self.imports)
        if found is not None or self.model is None:
            return found
        head, _, rest = name.partition(".")
        base = qualname_of(self.model.final(head))
        if base is None:
            return None
        return canonical(f"{base}.{rest}" if rest else base)

    def derived(self, key: str, compute: Callable[[ModuleSummary], T]) -> T:
        """``compute(self)``, once per summary: for what every block would otherwise derive
        again from a module-wide table (which imports name TensorFlow, ...).  ``compute`` must
        read only this summary, never a block."""
        memo = self.memo
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        value = memo[key] = compute(self)
        return value

    # -- incremental module facts ------------------------------------------------------------
    # A combine that runs over the whole module on every change of one block's value keeps
    # its pieces in the model's evaluator instead: each remembers what it read (blocks and
    # names through the model, the core tables, blocks' extracted values, tables the combine
    # declares), and the next summary takes over those whose inputs did not change.  They die
    # with the model, one generation later.

    def remember(self, key: Hashable, compute: Callable[[], T], busy: T) -> T:
        """``compute()``, remembered under ``key`` with what it read (``busy``: the answer
        while it is being computed, for a computation that needs itself)."""
        assert self.model is not None
        result: T = self.model.evaluator.remember(key, compute, busy)
        return result

    def reads_imports(self) -> None:
        """The current computation reads the imports, the Keras version or flavours."""
        if self.model is not None:
            self.model.evaluator.touch_atom(IMPORTS)

    def reads_classes(self) -> None:
        """The current computation reads the local classes' ids and names, their Keras kinds
        (``keras_classes``) or ``local_bases``; nothing else of their facts."""
        if self.model is not None:
            self.model.evaluator.touch_atom(CLASSES)

    def touch(self, atom: Atom) -> None:
        """The current computation reads an entry of a table declared with :meth:`declare`."""
        assert self.model is not None
        self.model.evaluator.touch_atom(atom)

    def declare(self, kind: str, table: Mapping[Any, object]) -> None:
        """A combine's own input table (``touch((kind, key))`` reads an entry); see
        :meth:`Evaluator.declare`."""
        assert self.model is not None
        self.model.evaluator.declare(kind, table)

    def block_values(
        self,
        fact: str,
        values: Sequence[Hashable],
        compute: Callable[[int, Hashable], T],
        empty: T,
        trivial: Callable[[Hashable], bool] | None = None,
    ) -> tuple[T, ...]:
        """``compute(block, value)`` for each block's extracted value of ``fact``, computed
        again only for blocks whose value, or what the part read, changed.  ``trivial(value)``:
        the part is ``empty`` without computing it (cheaper than remembering it)."""
        assert self.model is not None
        evaluator = self.model.evaluator
        quick = partial(_trivial_part, fact, values, trivial, empty) if trivial else None
        found = evaluator.parts(
            f"{EXTRA}:{fact}", partial(_fact_part, evaluator, fact, values, compute), empty, quick
        )
        return found.parts

    def class_kind(self, class_id: str) -> str | None:
        return self.keras_classes.get(class_id)

    @property
    def assigned(self) -> Mapping[str, frozenset[str]]:
        """Module name -> what it holds once the module ran, as qualified names of classes
        and functions (``keras.Sequential``, ``local:<class id>``).  Kept for the language
        server's hover; detectors ask :meth:`BlockContext.value`."""
        return _Holds(self.model)

    def has(self, feature: str) -> bool:
        return feature in self.features


class _Holds(Mapping[str, frozenset[str]]):
    def __init__(self, model: ModuleModel | None) -> None:
        self.model = model

    def __getitem__(self, name: str) -> frozenset[str]:
        if self.model is None:
            raise KeyError(name)
        out: set[str] = set()
        for value in self.model.final(name):
            if value.kind == "instance" and value.ref:
                out.add(value.ref)
            elif value.kind in ("name", "function", "class") and value.ref:
                out.add(value.ref if value.is_local else canonical(value.ref))
        if not out:
            raise KeyError(name)
        return frozenset(out)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _fact_part(
    evaluator: Evaluator,
    fact: str,
    values: Sequence[Hashable],
    compute: Callable[[int, Hashable], T],
    block: int,
) -> T:
    evaluator.touch_atom((EXTRA, fact, block))
    return compute(block, values[block])


def _trivial_part(
    fact: str,
    values: Sequence[Hashable],
    trivial: Callable[[Hashable], bool],
    empty: T,
    block: int,
) -> tuple[Atom, T] | None:
    return ((EXTRA, fact, block), empty) if trivial(values[block]) else None


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
    module_facts: Sequence[ModuleFact] = (),
    imported: ImportedNames | None = None,
) -> ModuleSummary:
    facts = tuple(facts)
    # Typing changes one block's semantic facts most of the time: what depends on the other
    # facts only is taken from the previous summary when they are unchanged.
    before = previous.block_facts if previous is not None else ()
    # The blocks whose facts are other objects than the previous summary's (None: the blocks
    # are not the same ones): only those can differ, so the comparisons below look at them.
    replaced = _replaced(before, facts) if previous is not None else None
    same_core = replaced is not None and _same_core(before, facts, replaced)
    if same_core:
        assert previous is not None
        imports, functions, classes = previous.imports, previous.functions, previous.classes
    else:
        raw_imports: dict[str, str] = {}
        functions = {}
        classes = {}
        for block in facts:
            raw_imports.update(block.imports)
            for fn in block.functions:
                functions[fn.id] = fn
            for cls in block.classes:
                classes[cls.id] = cls
        imports = dict(raw_imports)

    flavors = frozenset(f for f in (keras_flavor(t) for t in imports.values()) if f)

    keras_version = decide_keras_version(target_keras, flavors, legacy_env)
    model = ModuleModel(
        [block.semantic for block in facts],
        keras_version=keras_version,
        keys=keys,
        previous=previous.model if previous is not None else None,
        imported=imported,
    )
    evaluator = model.evaluator
    # Keras classes, by value of their bases (aliases and local bases included); remembered
    # with what they read, like every other answer of the model.
    keras_classes, local_bases = evaluator._memoized(
        ("keras-classes",), partial(_keras_classes, model), ({}, frozenset())
    )
    if not (
        previous is not None
        and keras_version == previous.keras_version
        and flavors == previous.keras_flavors
        and (imports is previous.imports or imports == previous.imports)
    ):
        evaluator.invalidate((IMPORTS,))
    if not (
        previous is not None
        and (same_core or _class_names(classes) == _class_names(previous.classes))
        and keras_classes == previous.keras_classes
        and frozenset(local_bases) == previous.local_bases
    ):
        evaluator.invalidate((CLASSES,))

    graph_map = build_graph(model, previous.graph_map if previous is not None else None)
    saving_flow = build_saving(
        model,
        previous.saving_flow if previous is not None else None,
        tuple(map(_MENTIONS, facts)),
    )
    stale_flow = stale_globals(
        model, graph_map, previous.stale_flow if previous is not None else None
    )
    stale: dict[str, set[str]] = {}
    for top, name in stale_flow.pairs:
        stale.setdefault(top, set()).add(name)

    if (
        previous is not None
        and same_core
        and all(before[k].called == facts[k].called for k in replaced or ())
    ):
        features = previous.features
    else:
        called: set[str] = set()
        for block in facts:
            called |= block.called
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

    switches, switch_parts = eager_switches(
        model, previous.switch_parts if previous is not None else None
    )
    log = ReadLog()
    tables = {
        "graph": TrackedDict("graph", log, graph_map.graph),
        "saving": TrackedDict("saving", log, saving_flow.classes),
        "stale_globals": TrackedDict(
            "stale_globals", log, {top: frozenset(names) for top, names in stale.items()}
        ),
        "eager_switches": TrackedDict("eager_switches", log, switches),
        "recursion": TrackedDict("recursion", log, recursion(graph_map)),
    }
    summary = ModuleSummary(
        imports=imports,
        functions=functions,
        classes=classes,
        keras_classes=keras_classes,
        graph=tables["graph"],
        features=features,
        keras_version=keras_version,
        keras_flavors=flavors,
        model=model,
        graph_map=graph_map,
        saving=tables["saving"],
        saving_flow=saving_flow,
        local_bases=frozenset(local_bases),
        stale_globals=tables["stale_globals"],
        eager_switches=tables["eager_switches"],
        recursion=tables["recursion"],
    )
    summary.block_facts = facts
    summary.switch_parts = switch_parts
    summary.stale_flow = stale_flow
    # A module fact's combine is run again only when a block's extracted value, the module's
    # imports, functions or Keras classes, or what it asked the model (recorded) changed.
    reusable = (
        previous is not None
        and same_core
        and model.edited is not None
        and keras_classes == previous.keras_classes
    )
    # Blocks whose extracted values differ from the previous summary's, when the blocks are
    # the same ones (the model was patched): their values compare one to one.
    patched = previous is not None and model.edited is not None
    differing = (
        [k for k in replaced if (a := before[k].extra) is not (b := facts[k].extra) and a != b]
        if patched and replaced is not None
        else []
    )
    if patched:
        evaluator.invalidate(_extra_changes(before, facts, differing))
    changed_atoms = evaluator._changed
    per_block: list[dict[str, object]] | None = None
    for fact in module_facts:
        if reusable:
            assert previous is not None
            held = previous.extra_deps.get(fact.name)
            if (
                held is not None
                and held[1].isdisjoint(changed_atoms)
                and all(
                    _value(before[k], fact.name) == _value(facts[k], fact.name) for k in differing
                )
            ):
                summary.extra[fact.name] = previous.extra[fact.name]
                summary.extra_deps[fact.name] = held
                evaluator.carry(fact.name)
                continue
        held = previous.extra_deps.get(fact.name) if previous is not None and patched else None
        if held is not None:
            # The previous values with the differing blocks' replaced: no pass over the module.
            patch = list(held[0])
            for k in differing:
                patch[k] = _value(facts[k], fact.name)
            values = tuple(patch)
        else:
            if per_block is None:
                per_block = [dict(block.extra) for block in facts]
            values = tuple(b.get(fact.name) for b in per_block)
        recorded = evaluator.recording()
        evaluator.space = fact.name  # what the combine remembers is its own
        try:
            summary.extra[fact.name] = fact.combine(list(values), summary)
        finally:
            evaluator.space = None
            evaluator.stop()
        summary.extra_deps[fact.name] = (values, frozenset(recorded))
    # The families' module facts are read like the other tables, by name: many are tables by
    # block number (the data family's program, model setup sites), which a statement inserted
    # above them renumbers; in the core fingerprint, that made every block of the module check
    # again, when only the blocks that read such a fact can see the change.
    summary.extra = tables["extra"] = TrackedDict("extra", log, summary.extra)
    tracked = TrackedTables(log, dict(tables), model)
    summary.tracked = tracked
    if previous is not None and previous.tracked is not None and model.edited is not None:
        tracked.compare(
            previous.tracked,
            (model.keys[k] for k in model.edited[0]),
            (atom for atom in evaluator._changed if isinstance(atom, str)),
        )
    summary.core_fingerprint = hash(
        (
            frozenset(imports.items()),
            frozenset(keras_classes.items()),
            features,
            summary.keras_version,
            flavors,
            frozenset((c.id, c.bases, c.decorators, c.methods) for c in classes.values()),
            frozenset(functions),
            saving_flow.registers_by_hand,
            summary.local_bases,
        )
    )
    summary.fingerprint = hash(
        (summary.core_fingerprint, *(tracked.digest(name) for name in sorted(tables)))
    )
    return summary


def _extra_changes(
    before: Sequence[BlockFacts], now: Sequence[BlockFacts], differing: Iterable[int]
) -> Iterator[Atom]:
    """``(EXTRA, fact, block)`` for the module facts whose extracted value in a block differs."""
    for k in differing:
        old, new = dict(before[k].extra), dict(now[k].extra)
        for name in old.keys() | new.keys():
            if old.get(name) != new.get(name):
                yield (EXTRA, name, k)


def _class_names(classes: Mapping[str, ClassFacts]) -> dict[str, str]:
    return {cid: cls.name for cid, cls in classes.items()}


_MENTIONS = attrgetter("mentions")


def _replaced(before: Sequence[BlockFacts], now: Sequence[BlockFacts]) -> list[int] | None:
    """Positions whose facts are not the very objects of ``before`` (None: another number of
    blocks).  A keystroke replaces one block of thousands: found without a Python-level loop."""
    if len(before) != len(now):
        return None
    return list(compress(range(len(now)), map(is_not, before, now)))


def _same_core(
    before: Sequence[BlockFacts], now: Sequence[BlockFacts], replaced: Sequence[int]
) -> bool:
    """The same imports, functions and classes in every block (``replaced``: the positions
    whose facts are other objects)."""
    return all(
        (a := before[k]).imports == (b := now[k]).imports
        and a.functions == b.functions
        and a.classes == b.classes
        for k in replaced
    )


def _value(block: BlockFacts, name: str) -> object:
    return next((value for fact, value in block.extra if fact == name), None)


def _keras_classes(model: ModuleModel) -> tuple[dict[str, str], frozenset[str]]:
    keras_classes: dict[str, str] = {}
    local_bases: set[str] = set()
    for gid in model.classes:
        kind = model.class_base(gid)
        if kind in ("layer", "model", "module"):
            keras_classes[gid] = kind
        local_bases.update(model.local_bases(gid))
    return keras_classes, frozenset(local_bases)


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
