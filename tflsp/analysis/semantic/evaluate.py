"""Evaluate terms to abstract values (:mod:`.values`), in the context of one block.

Library names stay names (``NAME tensorflow.data.Dataset``) until they are called, when the API
knowledge (:mod:`.api`) says what the call returns.  Strings and paths are folded wherever a
reader would know them: constants, ``+``, ``+=``, f-strings, ``%``-free ``.format``, ``os.path.join``,
``pathlib`` ``/``, ``str()``.  Anything else is unknown.
"""

from __future__ import annotations

import itertools
import posixpath
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol

from tflsp.analysis.names import canonical
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.api import ApiKnowledge
from tflsp.analysis.semantic.block import ClassSem, FunctionSem
from tflsp.analysis.semantic.imports import IMPORTED, ImportedNames
from tflsp.analysis.semantic.terms import CYCLE, Term
from tflsp.analysis.semantic.values import UNKNOWN, UNKNOWN_SET, Value, Values


class _Entry(Protocol):
    @property
    def block(self) -> int: ...


class FunctionEntry(_Entry, Protocol):
    @property
    def facts(self) -> FunctionSem: ...


class ClassEntry(_Entry, Protocol):
    @property
    def facts(self) -> ClassSem: ...


class ModuleModel(Protocol):
    """What the evaluator needs from :class:`tflsp.analysis.semantic.model.ModuleModel` (the
    model owns its evaluator; this keeps the import one way)."""

    @property
    def api(self) -> ApiKnowledge: ...
    @property
    def imported(self) -> ImportedNames | None: ...
    @property
    def functions(self) -> Mapping[str, FunctionEntry]: ...
    @property
    def classes(self) -> Mapping[str, ClassEntry]: ...
    @property
    def _methods(self) -> Mapping[str, dict[str, str]]: ...
    @property
    def blocks(self) -> Sequence[object]: ...

    def gid(self, block: int, local_id: str) -> str: ...
    def entry(self, block: int, name: str) -> Values: ...
    def global_value(self, block: int, name: str) -> Values: ...
    def flavor_of(self, qualname: str) -> str: ...
    def method(self, class_gid: str, name: str) -> str | None: ...
    def mro(self, class_gid: str) -> Iterator[str]: ...


Args = tuple[Values, ...]
Kwargs = tuple[tuple[str | None, Values], ...]

DATASET_METHODS = frozenset(
    [
        "apply",
        "batch",
        "bucket_by_sequence_length",
        "cache",
        "concatenate",
        "enumerate",
        "filter",
        "flat_map",
        "group_by_window",
        "ignore_errors",
        "interleave",
        "map",
        "padded_batch",
        "prefetch",
        "ragged_batch",
        "rebatch",
        "rejection_resample",
        "repeat",
        "scan",
        "shard",
        "shuffle",
        "skip",
        "snapshot",
        "take",
        "take_while",
        "unbatch",
        "unique",
        "window",
        "with_options",
    ]
)
_VARIABLE_LISTS = frozenset(
    {
        "trainable_variables",
        "trainable_weights",
        "variables",
        "weights",
        "non_trainable_variables",
        "non_trainable_weights",
    }
)
_KERAS_OBJECT_METHODS: dict[str, Values] = {
    "fit": v.one(v.HISTORY),
    "predict": v.one(v.NDARRAY),
    "predict_on_batch": v.one(v.NDARRAY),
    "save": v.one(v.NONE),
    "save_weights": v.one(v.NONE),
    "load_weights": v.one(v.NONE),
    "compile": v.one(v.NONE),
    "summary": v.one(v.NONE),
    "build": v.one(v.NONE),
    "get_config": v.one(v.DICT),
    "count_params": v.one(v.INT),
    "to_json": v.one(v.STR),
    "add_weight": v.one(v.VARIABLE),
    "add_variable": v.one(v.VARIABLE),
}
_STR_METHODS = frozenset(
    [
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "title",
        "capitalize",
        "casefold",
        "zfill",
        "removeprefix",
        "removesuffix",
    ]
)
_MAX_ELEMENTS = 8  # tuples and lists remember their elements up to this length


def vocabulary(word: str | None, api_base: Callable[[str], str | None]) -> Values:
    """Values for one word of the API return vocabulary."""
    if word is None:
        return UNKNOWN_SET
    simple = {
        "tensor": v.TENSOR,
        "variable": v.VARIABLE,
        "keras_variable": v.KERAS_VARIABLE,
        "keras_tensor": v.KERAS_TENSOR,
        "dataset": v.DATASET,
        "gradient_tape": v.TAPE,
        "ndarray": v.NDARRAY,
        "history": v.HISTORY,
        "none": v.NONE,
        "bool": v.BOOL,
        "int": v.INT,
        "float": v.FLOAT,
        "str": v.STR,
        "path": v.PATH,
    }
    kind = simple.get(word)
    if kind is not None:
        return v.one(kind)
    if word == "function":
        return v.one(v.FUNCTION, "", "", v.PLAIN)
    if word == "module":
        return v.one(v.MODULE)
    head, _, ref = word.partition(":")
    if head == "instance" and ref:
        ref = canonical(ref)
        return v.one(v.INSTANCE, ref, api_base(ref) or "")
    if head == "foreign" and ref:
        container = {
            "builtins.list": v.LIST,
            "builtins.dict": v.DICT,
            "builtins.tuple": v.TUPLE,
            "builtins.set": v.SET,
        }.get(ref)
        return v.one(container) if container else v.one(v.FOREIGN, ref)
    return UNKNOWN_SET


_GENERATIONS = itertools.count()

# What a memo entry depends on: a block number (its facts were read), a module name (where the
# module binds it was looked up), or a tuple naming an input a pass declared (``(kind, key)``,
# see :meth:`Evaluator.declare`), which never equals a block number or a name.
Atom = int | str | tuple[Hashable, ...]
_MISSING = object()


Memo = dict[object, tuple[Any, frozenset[Atom]]]
Quick = Callable[[int], "tuple[Atom, Any] | None"]


@dataclass
class _Space:
    """What one pass keeps in an evaluator: its memo entries, the input tables it declared
    and its per-block parts by kind (see :meth:`Evaluator.carry`)."""

    memo: Memo = field(default_factory=dict)
    inputs: dict[str, Mapping[Hashable, object]] = field(default_factory=dict)
    parts: dict[str, BlockParts] = field(default_factory=dict)


@dataclass(frozen=True)
class BlockParts:
    """Per-block parts of a module-wide pass, and which blocks' parts read each block or name."""

    parts: tuple[Any, ...]
    index: dict[Atom, set[int]]
    generation: int


class Evaluator:
    """Evaluates terms with memos; every memo entry remembers the blocks its answer read, so a
    caller can tell which blocks a result depends on (:meth:`recording`)."""

    def __init__(
        self,
        model: ModuleModel,
        parent: Evaluator | None = None,
        changed: frozenset[Atom] = frozenset(),
    ) -> None:
        self._model = weakref.ref(model)
        self.api = model.api
        # Dependencies are block numbers (their facts were read) and module names (where the
        # module binds them was looked up).
        self._memo: Memo = {}
        self._busy: set[object] = set()
        self._deps: list[set[Atom]] = []
        # Passes' own memo entries, declared inputs and per-block parts, by pass (None: the
        # summary's passes), for the next generation to compare with and start from.  The
        # pass running now is :attr:`space`.
        self._spaces: dict[str | None, _Space] = {None: _Space(self._memo)}
        self.space: str | None = None
        # The previous model's memo, when the module kept its shape: its answers hold unless
        # they read a block whose facts changed.  Only one generation is kept.
        self.parent = parent
        self._changed = changed
        self.generation = next(_GENERATIONS)
        if parent is not None:
            parent.parent = None

    @property
    def model(self) -> ModuleModel:
        # Held weakly: the model owns its evaluator, and a strong link back would make each
        # module's model, with every term and memo it holds, a cycle left to the collector.
        model = self._model()
        assert model is not None, "the evaluator outlived its model"
        return model

    # A pickled summary (the CLI cache, --jobs workers) carries its model and evaluator: the
    # weak link travels as the model itself and is made weak again on the other side.
    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_model": self.model}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._model = weakref.ref(state["_model"])

    def block_parts(
        self,
        kind: str,
        compute: Callable[[int], Any],
        empty: Any,
        previous: BlockParts | None,
        quick: Quick | None = None,
        remember: bool = True,
    ) -> BlockParts:
        """One memoized part per block (``(kind, block)``), for module-wide passes.  With the
        previous model's parts at hand only the parts that may have changed are looked at:
        those of edited blocks, and those that read a changed block or name (found through an
        index from dependency to block, kept with the parts).  ``remember=False``: no memo
        entry per part, for a caller that always has the previous parts at hand."""
        count = len(self.model.blocks)
        parent = self.parent
        if (
            previous is None
            or parent is None
            or previous.generation != parent.generation
            or len(previous.parts) != count
        ):
            parts: list[Any] = []
            index: dict[Atom, set[int]] = {}
            for block in range(count):
                parts.append(self._part(kind, block, compute, empty, index, quick, remember))
            return BlockParts(tuple(parts), index, self.generation)
        index = previous.index  # only grows: a stale entry costs a needless recomputation
        suspects: set[int] = set()
        for atom in self._changed:
            if isinstance(atom, int) and 0 <= atom < count:
                suspects.add(atom)
            suspects.update(index.get(atom, ()))
        if not suspects:
            self._depend_on(index)
            return BlockParts(previous.parts, index, self.generation)
        parts = list(previous.parts)
        for block in suspects:
            parts[block] = self._part(kind, block, compute, empty, index, quick, remember)
        self._depend_on(index)
        return BlockParts(tuple(parts), index, self.generation)

    def _depend_on(self, index: dict[Atom, set[int]]) -> None:
        # A caller recording what it read (a module fact's combine) reads every part, also the
        # ones taken over unchanged: its record must name what they read, or it would be taken
        # for unchanged when one of those inputs changes.  The index holds all of it (and at
        # worst more: a stale entry costs a needless recomputation).
        if self._deps:
            self._deps[-1].update(index)

    def parts(
        self, kind: str, compute: Callable[[int], Any], empty: Any, quick: Quick | None = None
    ) -> BlockParts:
        """:meth:`block_parts`, starting from the parts of ``kind`` the previous generation
        computed, kept here (one generation: they die with the evaluator that holds them).
        ``quick(block)``, when given, answers ``(atom, part)`` for a part that only reads
        ``atom``, or None to have ``compute(block)`` remembered as usual."""
        before = self._before(self.space)
        previous = before.parts.get(kind) if before is not None else None
        # The parts themselves go to the next generation: no memo entry per part.
        found = self.block_parts(kind, compute, empty, previous, quick, remember=False)
        self._here().parts[kind] = found
        return found

    def _here(self) -> _Space:
        space = self._spaces.get(self.space)
        if space is None:
            space = self._spaces[self.space] = _Space()
        return space

    def _before(self, name: str | None) -> _Space | None:
        """The previous generation's space of pass ``name``."""
        parent = self.parent
        return parent._spaces.get(name) if parent is not None else None

    def carry(self, name: str) -> None:
        """Pass ``name`` did not run in this generation because nothing it read changed (its
        answer was taken over): take over its memo entries, inputs and parts too, or the next
        change would find nothing to start from.  Every entry was read by its last run, whose
        dependencies did not change, so each still holds."""
        before = self._before(name)
        if before is None:
            return
        self._spaces[name] = _Space(
            dict(before.memo),
            dict(before.inputs),
            {
                kind: replace(found, generation=self.generation)
                for kind, found in before.parts.items()
            },
        )

    def invalidate(self, atoms: Iterable[Atom]) -> None:
        """Count ``atoms`` as changed since the previous generation: memo entries of the
        previous model that read one are computed again.  Only for atoms of a pass's own
        inputs (:meth:`declare`), and before anything looks such an entry up."""
        atoms = frozenset(atoms)
        if atoms and self.parent is not None:
            self._changed = self._changed | atoms

    def declare(self, kind: str, table: Mapping[Any, object]) -> None:
        """A pass's input ``table`` for this generation.  A computation that reads the entry of
        ``key`` says so with ``touch_atom((kind, key))``; entries that differ from the previous
        generation's table (added, removed, other value) are changed atoms, and so is
        ``(kind,)``, which a computation that iterates the table touches.  Declare before
        looking up any memo entry that may read the table."""
        self._here().inputs[kind] = table
        space = self._before(self.space)
        if space is None:
            if self.parent is not None:
                self.invalidate([(kind,), *((kind, key) for key in table)])
            return
        before = space.inputs.get(kind, {})
        if before is table:
            return
        changed: set[Atom] = set()
        for key, value in table.items():
            old = before.get(key, _MISSING)
            if old is not value and old != value:
                changed.add((kind, key))
        changed.update((kind, key) for key in before.keys() - table.keys())
        if changed:
            changed.add((kind,))  # the table as a whole, for who iterates it
        self.invalidate(changed)

    def _part(
        self,
        kind: str,
        block: int,
        compute: Callable[[int], Any],
        empty: Any,
        index: dict[Atom, set[int]],
        quick: Quick | None = None,
        remember: bool = True,
    ) -> Any:
        found = quick(block) if quick is not None else None
        if found is not None:
            # A part that reads nothing but one input (most blocks have nothing for a pass):
            # no memo entry, only the index entry that has it computed again when it changes.
            atom, result = found
            index.setdefault(atom, set()).add(block)
            if self._deps:
                self._deps[-1].add(atom)
            return result
        if not remember:
            deps: set[Atom] = set()
            self._deps.append(deps)
            try:
                result = compute(block)
            except RecursionError:
                result = empty
            finally:
                self._deps.pop()
            for atom in deps:
                index.setdefault(atom, set()).add(block)
            if self._deps:
                self._deps[-1].update(deps)
            return result
        key = (kind, block)
        result = self._memoized(key, partial(compute, block), empty)
        for atom in self._memo[key][1] if key in self._memo else ():
            index.setdefault(atom, set()).add(block)
        return result

    def _cached(
        self, key: object, memo: Memo | None = None, before: Memo | None = None
    ) -> tuple[Any, frozenset[Atom]] | None:
        if memo is None:
            memo = self._memo
            before = self.parent._memo if self.parent is not None else None
        found = memo.get(key)
        if found is None and before is not None:
            found = before.get(key)
            if found is not None:
                if found[1].isdisjoint(self._changed):
                    memo[key] = found
                else:
                    found = None
        return found

    # -- dependency bookkeeping -------------------------------------------------------------
    def touch(self, block: int) -> None:
        """The current computation reads the facts of ``block``."""
        if self._deps:
            self._deps[-1].add(block)

    def touch_name(self, name: str) -> None:
        """The current computation looked up where the module binds ``name``."""
        if self._deps:
            self._deps[-1].add(name)

    def touch_atom(self, atom: Atom) -> None:
        """The current computation read an input a pass declared (:meth:`declare`)."""
        if self._deps:
            self._deps[-1].add(atom)

    def recording(self) -> set[Atom]:
        """Start collecting the blocks read and names looked up from now on (pair with
        :meth:`stop`)."""
        found: set[Atom] = set()
        self._deps.append(found)
        return found

    def stop(self) -> None:
        self._deps.pop()

    def remember(self, key: object, compute: Callable[[], Any], busy: Any) -> Any:
        """:meth:`_memoized`, in the memo of the pass running now (:attr:`space`)."""
        if self.space is None:
            return self._memoized(key, compute, busy)
        before = self._before(self.space)
        return self._memoized(
            key, compute, busy, self._here().memo, before.memo if before is not None else None
        )

    def _memoized(
        self,
        key: object,
        compute: Callable[[], Any],
        busy: Any,
        memo: Memo | None = None,
        before: Memo | None = None,
    ) -> Any:
        found = self._cached(key, memo, before)
        if found is not None:
            if self._deps:
                self._deps[-1].update(found[1])
            return found[0]
        if memo is None:
            memo = self._memo
        # A pass's keys are its own: in the busy set, they are told apart by the pass.
        busy_key = key if memo is self._memo else (self.space, key)
        if busy_key in self._busy:
            return busy
        self._busy.add(busy_key)
        deps: set[Atom] = set()
        self._deps.append(deps)
        try:
            result = compute()
        except RecursionError:
            result = busy
        finally:
            self._deps.pop()
            self._busy.discard(busy_key)
        memo[key] = (result, frozenset(deps))
        if self._deps:
            self._deps[-1].update(deps)
        return result

    # -- entry points -----------------------------------------------------------------------
    def value(self, term: Term, block: int) -> Values:
        key = (block, term)
        found = self._cached(key)
        if found is not None:
            if self._deps:
                self._deps[-1].update(found[1])
            return found[0]

        def compute() -> Values:
            self.touch(block)
            return self._eval(term, block)

        # A term that needs itself (through module bindings) starts from nothing: the least
        # fixed point; constants on such cycles are dropped where the cycle is closed.
        result: Values = self._memoized(key, compute, v.NOTHING)
        return result

    def returns(self, gid: str) -> Values:
        def compute() -> Values:
            entry = self.model.functions.get(gid)
            if entry is None:
                return UNKNOWN_SET
            self.touch(entry.block)
            facts = entry.facts
            if facts.generator:
                return v.one(v.FOREIGN, "builtins.generator")
            if facts.is_async:
                return UNKNOWN_SET
            if facts.returns is None:
                return v.one(v.NONE)
            return self.value(facts.returns, entry.block)

        result: Values = self._memoized(("returns", gid), compute, UNKNOWN_SET)
        return result

    def class_base(self, gid: str) -> str:
        """The TF/Keras base kind of a local class ("" for other classes)."""

        def compute() -> str:
            entry = self.model.classes.get(gid)
            if entry is None:
                return ""
            self.touch(entry.block)
            for base in entry.facts.bases:
                for value in self.value(base, entry.block):
                    kind = self._base_of_value(value)
                    if kind:
                        return kind
            return ""

        result: str = self._memoized(("base", gid), compute, "")
        return result

    def _base_of_value(self, value: Value) -> str:
        if value.kind == v.CLASS:
            return value.base
        if value.kind == v.NAME:
            name = canonical(value.ref)
            return self.api.base_kind(name, self.model.flavor_of(name)) or ""
        return ""

    def function_flavor(self, gid: str) -> str:
        """``tf.function`` when the decorators make a graph function of it, ``py_function``
        when they make it run eagerly inside graphs, else ``plain``."""
        return self._decorated(gid)[0]

    def fixed_signature(self, gid: str) -> bool:
        """Decorated with ``tf.function(input_signature=...)``: Python numbers do not retrace."""
        return self._decorated(gid)[1]

    def _decorated(self, gid: str) -> tuple[str, bool]:
        def compute() -> tuple[str, bool]:
            entry = self.model.functions.get(gid)
            if entry is None:
                return v.PLAIN, False
            self.touch(entry.block)
            flavor, fixed = v.PLAIN, False
            current: Values = v.one(v.FUNCTION, v.local_ref(gid), "", v.PLAIN)
            for deco in reversed(entry.facts.decorators):
                applied = self._call_values(self.value(deco, entry.block), (current,), ())
                if any(x.kind == v.FUNCTION and x.const == v.TF_FUNCTION for x in applied):
                    flavor = v.TF_FUNCTION
                    fixed = fixed or _has_signature(deco) or any(x.base == FIXED for x in applied)
                elif any(x.kind == v.FUNCTION and x.const == v.PY_FUNCTION for x in applied):
                    flavor = v.PY_FUNCTION
                if applied and not v.is_unknown(applied):
                    current = applied
            return flavor, fixed

        result: tuple[str, bool] = self._memoized(("flavor", gid), compute, (v.PLAIN, False))
        return result

    def methods(self, class_gid: str) -> dict[str, str]:
        entry = self.model.classes.get(class_gid)
        if entry is not None:
            self.touch(entry.block)
        return self.model._methods.get(class_gid, {})

    def local_function(self, gid: str) -> Values:
        flavor, fixed = self._decorated(gid)
        return v.one(v.FUNCTION, v.local_ref(gid), FIXED if fixed else "", flavor)

    def local_class(self, gid: str) -> Values:
        return v.one(v.CLASS, v.local_ref(gid), self.class_base(gid))

    # -- terms ------------------------------------------------------------------------------
    def _eval(self, term: Term, k: int) -> Values:
        tag, args = term.tag, term.args
        if tag == "const":
            return _constant(args[0])
        if tag == "entry":
            return self.model.entry(k, args[0])
        if tag == "global":
            return self.model.global_value(k, args[0])
        if tag == "import":
            imported = self.model.imported
            if imported is not None:
                found = imported.value(args[0])
                if found is not None:
                    return found
            return v.one(v.NAME, args[0])  # spelled as imported; canonical when asked
        if tag == "relimport":
            return self._relative_import(args[0], args[1], args[2])
        if tag == "def":
            return self.local_function(self.model.gid(k, args[0]))
        if tag == "class":
            return self.local_class(self.model.gid(k, args[0]))
        if tag == "self":
            gid = self.model.gid(k, args[0])
            return frozenset(
                {Value(v.INSTANCE, v.local_ref(gid), self.class_base(gid), None, frozenset({gid}))}
            )
        if tag == "attr":
            return self._attribute(self.value(args[0], k), args[1])
        if tag == "call":
            return self._call(args[0], args[1], args[2], k)
        if tag == "union":
            if CYCLE not in args:
                return v.join(self.value(t, k) for t in args)
            # A loop-carried value: the other bindings give its kinds (the least fixed point
            # starts from nothing), but not its constants, which change every iteration.
            found = v.join(self.value(t, k) for t in args if t is not CYCLE)
            return frozenset(v.without_constant(x) for x in found)
        if tag == "binop":
            return self._binop(args[0], self.value(args[1], k), self.value(args[2], k))
        if tag == "unary":
            return self._unary(args[0], self.value(args[1], k))
        if tag == "compare":
            return self._compare(args[0], [self.value(t, k) for t in args[1]])
        if tag == "fstr":
            return self._fstring(args[0], k)
        if tag in ("list", "tuple", "set"):
            return self._sequence(tag, args[0], k)
        if tag == "dict":
            items = [self.value(t, k) for t in args[1]]
            return frozenset({Value(v.DICT, contents=v.contents_of(v.join(items)))})
        if tag == "sub":
            return self._subscript(self.value(args[0], k), self.value(args[1], k))
        if tag == "item":
            return self._item(self.value(args[0], k), args[1])
        if tag == "iter":
            return self._iterate(self.value(args[0], k))
        if tag == "enter":
            return self._enter(self.value(args[0], k))
        if tag == "comp":
            kind = {"list": v.LIST, "set": v.SET, "dict": v.DICT}.get(args[0], v.FOREIGN)
            inner = self.value(args[1], k)
            ref = "builtins.generator" if kind == v.FOREIGN else ""
            return frozenset({Value(kind, ref, contents=v.contents_of(inner))})
        if tag == "nothing":
            return v.NOTHING
        if tag == "str":
            return self._to_str(self.value(args[0], k))
        return UNKNOWN_SET

    def _relative_import(self, level: int, module: str, name: str) -> Values:
        imported = self.model.imported
        qualname = imported.absolute(level, module, name) if imported is not None else None
        if imported is None or qualname is None:
            return UNKNOWN_SET
        found = imported.value(qualname)
        return found if found is not None else UNKNOWN_SET

    # -- attributes -------------------------------------------------------------------------
    def _attribute(self, base: Values, name: str) -> Values:
        parts: list[Values] = []
        for value in base:
            parts.append(self._attribute_of(value, name))
        return v.join(parts) if parts else v.NOTHING

    def _attribute_of(self, value: Value, name: str) -> Values:
        kind = value.kind
        if kind in (v.NAME, v.MODULE):
            if not value.ref:
                return UNKNOWN_SET
            imported = self.model.imported
            if imported is not None:
                found = imported.value(f"{value.ref}.{name}")
                if found is not None:
                    return found
            return v.one(v.NAME, f"{value.ref}.{name}")
        if kind == v.CLASS and value.is_local:
            return self._class_attribute(value.local_id, name, instance=False)
        if kind == v.CLASS:
            return v.one(v.NAME, canonical(f"{value.ref}.{name}"))
        if kind == v.INSTANCE:
            if value.is_local:
                found = self._class_attribute(value.local_id, name, instance=True)
                if not v.is_unknown(found) or value.base not in (v.LAYER, v.MODEL, v.CALLBACK):
                    return found
            if name in _VARIABLE_LISTS and value.base in (v.LAYER, v.MODEL, v.TF_MODULE):
                return v.one(v.LIST, "variables")
            if name == "model" and value.base == v.CALLBACK:
                return v.one(v.INSTANCE, "keras.Model", v.MODEL)  # set by fit() on callbacks
            if name == "optimizer" and value.base == v.MODEL:
                return v.one(v.INSTANCE, "keras.Optimizer", v.OPTIMIZER)
            if name == "layers" and value.base == v.MODEL:
                return frozenset({Value(v.LIST, "layers", contents=value.contents)})
            if name in ("input", "output", "inputs", "outputs") and value.base == v.MODEL:
                return v.one(v.KERAS_TENSOR)
            return UNKNOWN_SET
        if kind in (v.TENSOR, v.VARIABLE, v.KERAS_VARIABLE, v.KERAS_TENSOR):
            if name == "T":
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        if kind == v.PATH:
            if name == "parent":
                return frozenset({Value(v.PATH, const=_parent(value.const))})
            if name in ("name", "stem", "suffix"):
                return v.one(v.STR)
            return UNKNOWN_SET
        if kind == v.NDARRAY and name == "T":
            return v.one(v.NDARRAY)
        return UNKNOWN_SET

    def _class_attribute(self, gid: str, name: str, *, instance: bool) -> Values:
        key = ("attr", gid, name, instance)
        result: Values = self._memoized(
            key, lambda: self._compute_class_attribute(gid, name, instance), UNKNOWN_SET
        )
        return result

    def _compute_class_attribute(self, gid: str, name: str, instance: bool) -> Values:
        model = self.model
        parts: list[Values] = []
        for cls_gid in model.mro(gid):
            entry = model.classes[cls_gid]
            method = self.methods(cls_gid).get(name)
            if method is not None:
                fn = model.functions[method]
                if instance and any(_is_property(t) for t in fn.facts.decorators):
                    return self.returns(method)
                return self.local_function(method)
            if instance:
                assigned = [t for attr, t in entry.facts.attributes if attr == name]
                parts.extend(self.value(t, entry.block) for t in assigned)
            declared = [t for attr, t in entry.facts.class_attributes if attr == name]
            parts.extend(self.value(t, entry.block) for t in declared)
            if parts:
                return v.join(parts)
        return UNKNOWN_SET

    # -- calls ------------------------------------------------------------------------------
    def _call(
        self,
        func: Term,
        arg_terms: Sequence[Term],
        kw_terms: Sequence[tuple[str | None, Term]],
        k: int,
    ) -> Values:
        args = tuple(self.value(t, k) for t in arg_terms)
        kwargs: Kwargs = tuple((name, self.value(t, k)) for name, t in kw_terms)
        if func.tag == "attr":
            receiver = self.value(func.args[0], k)
            method = func.args[1]
            parts = [self._method(r, method, args, kwargs) for r in receiver]
            return v.join(parts) if parts else v.NOTHING
        return self._call_values(self.value(func, k), args, kwargs)

    def call(self, func: Values, args: Args, kwargs: Kwargs = ()) -> Values:
        return self._call_values(func, args, kwargs)

    def _call_values(self, func: Values, args: Args, kwargs: Kwargs) -> Values:
        if not func:
            return v.NOTHING
        return v.join(self._call_one(f, args, kwargs) for f in func)

    def _call_one(self, func: Value, args: Args, kwargs: Kwargs) -> Values:
        kind = func.kind
        if kind in (v.NAME, v.MODULE) or (kind in (v.CLASS, v.FUNCTION) and not func.is_local):
            if not func.ref:
                if kind == v.FUNCTION and func.const == v.TF_FUNCTION:
                    return UNKNOWN_SET
                return UNKNOWN_SET
            return self._call_library(func.ref, args, kwargs)
        if kind == v.CLASS:
            gid = func.local_id
            contents = frozenset({gid}) if func.base in (v.LAYER, v.MODEL) else frozenset()
            return frozenset({Value(v.INSTANCE, func.ref, func.base, None, contents)})
        if kind == v.FUNCTION:
            return self.returns(func.local_id)
        if kind == v.INSTANCE:
            if func.is_local:
                method = self.model.method(func.local_id, "__call__")
                if method is not None and func.base not in (v.LAYER, v.MODEL):
                    return self.returns(method)
            if func.base in (v.LAYER, v.MODEL):
                return _layer_output(func, args, kwargs)
            if func.base in (v.METRIC, v.LOSS):
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        return UNKNOWN_SET

    def _call_library(self, name: str, args: Args, kwargs: Kwargs) -> Values:
        name = canonical(name)
        special = _SPECIAL.get(name)
        if special is not None:
            return special(self, args, kwargs)
        api = self.api
        flavor = self.model.flavor_of(name)
        word = api.returns(name, flavor)
        if word is None:
            if api.kind(name, flavor) == "class":
                base = api.base_kind(name, flavor) or ""
                contents = v.contents_of(v.join(args)) | v.contents_of(
                    v.join(val for _, val in kwargs)
                )
                imported = self.model.imported
                if (
                    imported is not None
                    and base in (v.LAYER, v.MODEL)
                    and imported.registered(name) is False
                ):
                    contents |= {IMPORTED + name}  # saved and loaded like a local class
                return frozenset({Value(v.INSTANCE, name, base, None, contents)})
            return UNKNOWN_SET
        result = vocabulary(word, lambda ref: api.base_kind(ref, self.model.flavor_of(ref)))
        if v.any_of(result, lambda x: x.kind == v.TENSOR) and _any_keras_tensor(args, kwargs):
            contents = v.contents_of(v.join(args))
            return frozenset({Value(v.KERAS_TENSOR, contents=contents)})
        if v.any_of(result, lambda x: x.kind == v.INSTANCE):
            contents = v.contents_of(v.join(args)) | v.contents_of(v.join(val for _, val in kwargs))
            result = v.with_contents(result, contents)
        return result

    def _method(self, receiver: Value, name: str, args: Args, kwargs: Kwargs) -> Values:
        kind = receiver.kind
        if kind in (v.NAME, v.MODULE):
            return self._call_library(canonical(f"{receiver.ref}.{name}"), args, kwargs)
        if kind == v.CLASS:
            if receiver.is_local:
                attr = self._class_attribute(receiver.local_id, name, instance=False)
                if name in ("from_config",) and v.is_unknown(attr):
                    return self._call_one(receiver, args, kwargs)
                return self._call_values(attr, args, kwargs)
            return self._call_library(canonical(f"{receiver.ref}.{name}"), args, kwargs)
        if kind == v.INSTANCE:
            if receiver.is_local:
                method = self.model.method(receiver.local_id, name)
                if method is not None:
                    return self.returns(method)
                attr = self._class_attribute(receiver.local_id, name, instance=True)
                if not v.is_unknown(attr):
                    return self._call_values(attr, args, kwargs)
            if receiver.base in (v.MODEL, v.LAYER) and name in _KERAS_OBJECT_METHODS:
                return _KERAS_OBJECT_METHODS[name]
            if receiver.base in (v.MODEL, v.LAYER) and name == "__call__":
                return _layer_output(receiver, args, kwargs)
            if receiver.ref and not receiver.is_local:
                word = self.api.method_returns(
                    receiver.ref, name, self.model.flavor_of(receiver.ref)
                )
                if word is not None:
                    return vocabulary(
                        word, lambda ref: self.api.base_kind(ref, self.model.flavor_of(ref))
                    )
            if receiver.ref == "tensorflow.random.Generator" and name in (
                "normal",
                "uniform",
                "truncated_normal",
            ):
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        if kind == v.DATASET:
            if name in DATASET_METHODS:
                return v.one(v.DATASET)
            if name in ("cardinality", "reduce"):
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        if kind in (v.TENSOR, v.KERAS_TENSOR):
            if name == "numpy":
                return v.one(v.NDARRAY)
            if name in ("cpu", "gpu") and kind == v.TENSOR:
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        if kind in (v.VARIABLE, v.KERAS_VARIABLE):
            if name in ("assign", "assign_add", "assign_sub"):
                return frozenset({receiver})
            if name == "numpy":
                return v.one(v.NDARRAY)
            if name in ("read_value", "value"):
                return v.one(v.TENSOR)
            return UNKNOWN_SET
        if kind == v.TAPE:
            if name in ("gradient", "jacobian", "batch_jacobian"):
                return v.one(v.LIST, "gradients")
            if name == "watch":
                return v.one(v.NONE)
            return UNKNOWN_SET
        if kind == v.STR:
            return self._str_method(receiver, name, args)
        if kind == v.PATH:
            if name in (
                "joinpath",
                "with_suffix",
                "with_name",
                "resolve",
                "absolute",
                "expanduser",
            ):
                text = receiver.const if isinstance(receiver.const, str) else None
                if name == "joinpath" and text is not None:
                    parts = [_text(a) for a in args]
                    if all(p is not None for p in parts):
                        return frozenset({Value(v.PATH, const=posixpath.join(text, *parts))})  # type: ignore[arg-type]
                if name == "with_suffix" and text is not None and args:
                    suffix = _text(args[0])
                    if suffix is not None:
                        return frozenset(
                            {Value(v.PATH, const=posixpath.splitext(text)[0] + suffix)}
                        )
                return v.one(v.PATH)
            if name == "as_posix":
                return frozenset({Value(v.STR, const=receiver.const)})
            if name == "exists":
                return v.one(v.BOOL)
            return UNKNOWN_SET
        if kind == v.NDARRAY:
            if name in ("astype", "reshape", "copy", "transpose", "flatten", "squeeze", "ravel"):
                return v.one(v.NDARRAY)
            if name == "tolist":
                return v.one(v.LIST)
            return UNKNOWN_SET
        if kind == v.FOREIGN and receiver.ref == "PIL.Image.Image":
            if name in ("resize", "convert", "crop", "rotate", "copy", "transpose"):
                return frozenset({receiver})
            if name == "save":
                return v.one(v.NONE)
            return UNKNOWN_SET
        if kind in (v.LIST, v.DICT, v.SET):
            if name in ("append", "extend", "insert", "update", "add", "clear", "sort", "reverse"):
                return v.one(v.NONE)
            if name == "copy":
                return frozenset({receiver})
            if name in ("items", "values", "keys") and kind == v.DICT:
                return v.one(v.FOREIGN, "builtins.dict_view")
            return UNKNOWN_SET
        return UNKNOWN_SET

    def _str_method(self, receiver: Value, name: str, args: Args) -> Values:
        text = receiver.const if isinstance(receiver.const, str) else None
        if name == "format":
            if text is None:
                return v.one(v.STR)
            parts = [_text(a) for a in args]
            if (
                all(p is not None for p in parts)
                and "{}" in text
                and "{" not in text.replace("{}", "")
            ):
                try:
                    return frozenset({Value(v.STR, const=text.format(*parts))})
                except (IndexError, KeyError, ValueError):
                    return v.one(v.STR)
            return v.one(v.STR)
        if name == "join":
            if text is not None and args:
                items = _elements(args[0])
                if items is not None:
                    texts = [_text(i) for i in items]
                    if all(t is not None for t in texts):
                        return frozenset({Value(v.STR, const=text.join(texts))})  # type: ignore[arg-type]
            return v.one(v.STR)
        if name in _STR_METHODS:
            if text is not None and all(_text(a) is not None for a in args):
                try:
                    result = getattr(text, name)(*[_text(a) for a in args])
                except (TypeError, ValueError):
                    return v.one(v.STR)
                return frozenset({Value(v.STR, const=result)})
            return v.one(v.STR)
        if name in ("startswith", "endswith", "isdigit", "isalpha"):
            return v.one(v.BOOL)
        if name == "split":
            return v.one(v.LIST)
        if name in ("encode",):
            return v.one(v.FOREIGN, "builtins.bytes")
        return UNKNOWN_SET

    # -- operators --------------------------------------------------------------------------
    def _binop(self, op: str, left: Values, right: Values) -> Values:
        if not left or not right:
            return v.NOTHING
        out: set[Value] = set()
        for a in left:
            for b in right:
                out.update(_binop_one(op, a, b))
        return frozenset(out)

    def _unary(self, op: str, operand: Values) -> Values:
        if op == "Not":
            return v.one(v.BOOL)
        out: set[Value] = set()
        for x in operand:
            if x.kind in (v.TENSOR, v.VARIABLE, v.KERAS_VARIABLE):
                out.add(Value(v.TENSOR))
            elif x.kind in (v.INT, v.FLOAT, v.NDARRAY, v.KERAS_TENSOR):
                const = x.const
                if op == "USub" and isinstance(const, (int, float)) and not isinstance(const, bool):
                    out.add(Value(x.kind, const=-const))
                else:
                    out.add(Value(x.kind, contents=x.contents))
            elif x.kind == v.BOOL:
                out.add(Value(v.INT))
            else:
                out.add(UNKNOWN)
        return frozenset(out)

    def _compare(self, ops: tuple[str, ...], operands: list[Values]) -> Values:
        if any(op in ("Is", "IsNot", "In", "NotIn") for op in ops):
            return v.one(v.BOOL)
        tensors = (v.TENSOR, v.VARIABLE, v.KERAS_VARIABLE)
        if any(v.any_of(o, lambda x: x.kind in tensors) for o in operands):
            return v.one(v.TENSOR)
        if any(v.any_of(o, lambda x: x.kind == v.KERAS_TENSOR) for o in operands):
            return v.one(v.KERAS_TENSOR)
        if any(v.any_of(o, lambda x: x.kind == v.NDARRAY) for o in operands):
            return v.one(v.NDARRAY)
        if all(v.all_of(o, lambda x: x.kind in (*v.SCALARS, v.STR, v.NONE)) for o in operands):
            return v.one(v.BOOL)
        return UNKNOWN_SET

    # -- strings ----------------------------------------------------------------------------
    def _fstring(self, parts: Sequence[Term], k: int) -> Values:
        texts: list[str] = []
        for part in parts:
            values = self.value(part, k)
            text = _single_text(values)
            if text is None:
                # The end of the string may still be known (``f"{run}/model.keras"``).
                tail = self._known_tail(parts, k)
                return frozenset({Value(v.STR, const=None, base=tail)}) if tail else v.one(v.STR)
            texts.append(text)
        return frozenset({Value(v.STR, const="".join(texts))})

    def _known_tail(self, parts: Sequence[Term], k: int) -> str:
        texts: list[str] = []
        for part in reversed(parts):
            text = _single_text(self.value(part, k))
            if text is None:
                break
            texts.append(text)
        return "".join(reversed(texts))

    def _to_str(self, values: Values) -> Values:
        out: set[Value] = set()
        for x in values:
            if x.kind in (v.STR, v.PATH) and isinstance(x.const, str):
                out.add(Value(v.STR, const=x.const))
            elif x.kind in (v.INT, v.FLOAT, v.BOOL, v.NONE) and (
                x.const is not None or x.kind == v.NONE
            ):
                out.add(Value(v.STR, const=str(x.const)))
            elif x.kind in (v.STR, v.PATH):
                out.add(Value(v.STR, base=x.base))
            else:
                out.add(Value(v.STR))
        return frozenset(out)

    # -- containers -------------------------------------------------------------------------
    def _sequence(self, tag: str, elts: Sequence[Term], k: int) -> Values:
        kind = {"list": v.LIST, "tuple": v.TUPLE, "set": v.SET}[tag]
        items = [self.value(t, k) for t in elts]
        contents = v.contents_of(v.join(items))
        const = tuple(items) if len(items) <= _MAX_ELEMENTS and tag != "set" else None
        if any(t.tag == "star" for t in elts):
            const = None
        return frozenset({Value(kind, "", "", const, contents)})

    def _subscript(self, base: Values, index: Values) -> Values:
        out: set[Value] = set()
        for x in base:
            if x.kind in (v.LIST, v.TUPLE):
                items = x.const if isinstance(x.const, tuple) else None
                position = _single_int(index)
                if (
                    items is not None
                    and position is not None
                    and -len(items) <= position < len(items)
                ):
                    out.update(items[position])
                elif x.ref == "variables":
                    out.add(Value(v.VARIABLE))
                else:
                    out.add(UNKNOWN)
            elif x.kind in (v.TENSOR, v.VARIABLE, v.KERAS_VARIABLE):
                out.add(Value(v.TENSOR))
            elif x.kind in (v.KERAS_TENSOR, v.NDARRAY):
                out.add(Value(x.kind, contents=x.contents))
            else:
                out.add(UNKNOWN)
        return frozenset(out)

    def _item(self, base: Values, position: int) -> Values:
        out: set[Value] = set()
        for x in base:
            if x.kind in (v.LIST, v.TUPLE) and isinstance(x.const, tuple):
                items = x.const
                out.update(items[position] if position < len(items) else (UNKNOWN,))
            elif x.kind in (v.TENSOR, v.KERAS_TENSOR, v.NDARRAY):
                out.add(Value(x.kind, contents=x.contents))
            elif x.kind == v.LIST and x.ref == "gradients":
                out.add(Value(v.TENSOR, "gradient"))
            else:
                out.add(UNKNOWN)
        return frozenset(out)

    def _iterate(self, base: Values) -> Values:
        out: set[Value] = set()
        for x in base:
            if x.kind == v.DATASET:
                out.add(Value(v.TENSOR, "element"))
            elif x.kind in (v.TENSOR, v.NDARRAY, v.KERAS_TENSOR):
                out.add(Value(x.kind))
            elif x.kind in (v.LIST, v.TUPLE) and isinstance(x.const, tuple) and x.const:
                for item in x.const:
                    out.update(item)
            elif x.kind in (v.LIST, v.TUPLE) and x.ref == "variables":
                out.add(Value(v.VARIABLE))
            elif x.kind == v.FOREIGN and x.ref == "builtins.range":
                out.add(Value(v.INT))
            elif (
                x.kind == v.FOREIGN and x.ref == "builtins.enumerate" and isinstance(x.const, tuple)
            ):
                out.add(Value(v.TUPLE, const=(v.one(v.INT), x.const[0])))
            elif x.kind == v.FOREIGN and x.ref == "builtins.zip" and isinstance(x.const, tuple):
                out.add(Value(v.TUPLE, const=x.const))
            else:
                out.add(UNKNOWN)
        return frozenset(out)

    def _enter(self, base: Values) -> Values:
        out: set[Value] = set()
        for x in base:
            if x.kind in (v.TAPE, v.FOREIGN) or (x.kind == v.INSTANCE and x.is_local):
                out.add(x)
            else:
                out.add(UNKNOWN)
        return frozenset(out)


# -- helpers --------------------------------------------------------------------------------------
def _constant(value: object) -> Values:
    if isinstance(value, bool):
        return frozenset({Value(v.BOOL, const=value)})
    if isinstance(value, int):
        return frozenset({Value(v.INT, const=value)})
    if isinstance(value, float):
        return frozenset({Value(v.FLOAT, const=value)})
    if isinstance(value, str):
        return frozenset({Value(v.STR, const=value)})
    if value is None:
        return v.one(v.NONE)
    if isinstance(value, bytes):
        return v.one(v.FOREIGN, "builtins.bytes")
    return UNKNOWN_SET


def _text(values: Values) -> str | None:
    return _single_text(values)


def _single_text(values: Values) -> str | None:
    """The one text every value has (str/path constants, numbers for formatting)."""
    found: str | None = None
    for x in values:
        if x.kind in (v.STR, v.PATH) and isinstance(x.const, str):
            text = x.const
        elif x.kind in (v.INT, v.FLOAT) and x.const is not None and not isinstance(x.const, bool):
            text = str(x.const)
        else:
            return None
        if found is not None and text != found:
            return None
        found = text
    return found


def _single_int(values: Values) -> int | None:
    found: int | None = None
    for x in values:
        if x.kind != v.INT or not isinstance(x.const, int):
            return None
        if found is not None and x.const != found:
            return None
        found = x.const
    return found


def _elements(values: Values) -> list[Values] | None:
    if len(values) != 1:
        return None
    (x,) = values
    if x.kind in (v.LIST, v.TUPLE) and isinstance(x.const, tuple):
        return list(x.const)
    return None


def _parent(text: object) -> str | None:
    return posixpath.dirname(text) if isinstance(text, str) else None


def _is_property(term: Term) -> bool:
    if term.tag in ("entry", "global"):
        return term.args[0] in ("property", "cached_property")
    return term.tag == "attr" and term.args[1] in ("setter", "getter", "cached_property")


def _any_keras_tensor(args: Args, kwargs: Kwargs) -> bool:
    for values in (*args, *(val for _, val in kwargs)):
        for x in values:
            if x.kind == v.KERAS_TENSOR:
                return True
            if (
                x.kind in (v.LIST, v.TUPLE)
                and isinstance(x.const, tuple)
                and any(y.kind == v.KERAS_TENSOR for item in x.const for y in item)
            ):
                return True
    return False


def _layer_output(layer: Value, args: Args, kwargs: Kwargs) -> Values:
    if _any_keras_tensor(args, kwargs):
        contents = v.contents_of(v.join(args)) | layer.contents
        return frozenset({Value(v.KERAS_TENSOR, contents=contents)})
    return v.one(v.TENSOR)


_NUMBERS = (v.INT, v.FLOAT, v.BOOL)
_TENSORISH = (v.TENSOR, v.VARIABLE, v.KERAS_VARIABLE)


def _binop_one(op: str, a: Value, b: Value) -> set[Value]:
    if op == "Add" and a.kind == v.STR and b.kind == v.STR:
        if isinstance(a.const, str) and isinstance(b.const, str):
            return {Value(v.STR, const=a.const + b.const)}
        if isinstance(b.const, str):
            return {Value(v.STR, base=b.const)}
        return {Value(v.STR, base=b.base)}
    if op == "Add" and a is UNKNOWN and b.kind == v.STR and isinstance(b.const, str) and b.const:
        # ``self.get_temp_dir() + "/model"``: whatever the left holds, a reader knows how the
        # text ends (a tensor of strings would be the rare exception).
        return {Value(v.STR, base=b.const)}
    if op == "Div" and a.kind == v.PATH and b.kind in (v.STR, v.PATH):
        if isinstance(a.const, str) and isinstance(b.const, str):
            return {Value(v.PATH, const=posixpath.join(a.const, b.const))}
        if isinstance(b.const, str):
            return {Value(v.PATH, base=b.const)}
        return {Value(v.PATH)}
    if op == "Mod" and a.kind == v.STR:
        return {Value(v.STR)}
    if a.kind == v.KERAS_TENSOR or b.kind == v.KERAS_TENSOR:
        return {Value(v.KERAS_TENSOR, contents=a.contents | b.contents)}
    if a.kind in _TENSORISH or b.kind in _TENSORISH:
        if a.kind in (*_TENSORISH, *_NUMBERS, v.NDARRAY) and b.kind in (
            *_TENSORISH,
            *_NUMBERS,
            v.NDARRAY,
        ):
            return {Value(v.TENSOR)}
        return {UNKNOWN}
    if a.kind == v.NDARRAY or b.kind == v.NDARRAY:
        if a.kind in (*_NUMBERS, v.NDARRAY) and b.kind in (*_NUMBERS, v.NDARRAY):
            return {Value(v.NDARRAY)}
        return {UNKNOWN}
    if a.kind in _NUMBERS and b.kind in _NUMBERS:
        kind = v.FLOAT if v.FLOAT in (a.kind, b.kind) or op == "Div" else v.INT
        return {Value(kind)}
    if op == "Add" and a.kind == b.kind and a.kind in (v.LIST, v.TUPLE):
        return {Value(a.kind, contents=a.contents | b.contents)}
    if op == "Mult" and {a.kind, b.kind} <= {v.LIST, v.INT}:
        return {Value(v.LIST, contents=a.contents | b.contents)}
    return {UNKNOWN}


# -- library calls the generic table cannot describe -----------------------------------------------
FIXED = "input_signature"  # ``base`` of a tf.function value whose signature is fixed


def _has_signature(term: Term) -> bool:
    return term.tag == "call" and any(name == "input_signature" for name, _ in term.args[2])


def _tf_function(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    target = args[0] if args else next((val for name, val in kwargs if name == "func"), None)
    fixed = FIXED if any(name == "input_signature" for name, _ in kwargs) else ""
    if target is None:
        # ``tf.function(jit_compile=True)``: a decorator that makes tf.functions.
        return v.one(v.NAME, "tensorflow.function")
    out: set[Value] = set()
    for x in target:
        if x.kind == v.FUNCTION:
            out.add(Value(v.FUNCTION, x.ref, fixed or x.base, v.TF_FUNCTION))
        else:
            out.add(Value(v.FUNCTION, "", fixed, v.TF_FUNCTION))
    return frozenset(out)


_PY_DECORATOR = "tensorflow.py_function.<decorator>"


def _py_function(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args and not any(name in ("func", "inp") for name, _ in kwargs):
        # ``@tf.py_function(Tout=...)``: a decorator; the function it wraps runs eagerly.
        return v.one(v.NAME, _PY_DECORATOR)
    return v.one(v.TENSOR)


def _py_decorated(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    target = args[0] if args else v.NOTHING
    made = {Value(v.FUNCTION, x.ref, "", v.PY_FUNCTION) for x in target if x.kind == v.FUNCTION}
    return frozenset(made) or UNKNOWN_SET


def _sequential(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    contents = v.contents_of(v.join((*args, *(val for _, val in kwargs))))
    return frozenset({Value(v.INSTANCE, "keras.Sequential", v.MODEL, None, contents)})


def _functional(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    contents = v.contents_of(v.join((*args, *(val for _, val in kwargs))))
    return frozenset({Value(v.INSTANCE, "keras.Model", v.MODEL, None, contents)})


def _path_join(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args:
        return v.one(v.STR)
    texts = [_single_text(a) for a in args]
    if all(t is not None for t in texts):
        return frozenset({Value(v.STR, const=posixpath.join(*texts))})  # type: ignore[arg-type]
    last = texts[-1]
    return frozenset({Value(v.STR, base=last)}) if last is not None else v.one(v.STR)


def _str(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args:
        return frozenset({Value(v.STR, const="")})
    return ev._to_str(args[0])


def _path(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    texts = [_single_text(a) for a in args]
    if args and all(t is not None for t in texts):
        return frozenset({Value(v.PATH, const=posixpath.join(*texts))})  # type: ignore[arg-type]
    if args and texts[-1] is not None:
        return frozenset({Value(v.PATH, base=texts[-1])})
    return v.one(v.PATH)


def _partial(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args:
        return UNKNOWN_SET
    return frozenset(x for x in args[0] if x.kind == v.FUNCTION) or UNKNOWN_SET


def _tfds_load(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    options = dict(kwargs)
    with_info = options.get("with_info")
    split = options.get("split")
    if with_info is not None and not v.all_of(with_info, lambda x: x.const is False):
        return UNKNOWN_SET
    if split is None or not v.all_of(split, lambda x: x.kind == v.STR):
        return UNKNOWN_SET
    return v.one(v.DATASET)


def _enumerate(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args:
        return UNKNOWN_SET
    return frozenset({Value(v.FOREIGN, "builtins.enumerate", const=(ev._iterate(args[0]),))})


def _zip(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    if not args or len(args) > _MAX_ELEMENTS:
        return UNKNOWN_SET
    return frozenset({Value(v.FOREIGN, "builtins.zip", const=tuple(ev._iterate(a) for a in args))})


def _identity(ev: Evaluator, args: Args, kwargs: Kwargs) -> Values:
    return args[0] if args else UNKNOWN_SET


_SPECIAL: dict[str, Callable[[Evaluator, Args, Kwargs], Values]] = {
    "tensorflow.function": _tf_function,
    "tensorflow.py_function": _py_function,
    "tensorflow.numpy_function": _py_function,
    _PY_DECORATOR: _py_decorated,
    "keras.Sequential": _sequential,
    "keras.Model": _functional,
    "os.path.join": _path_join,
    "builtins.str": _str,
    "pathlib.Path": _path,
    "pathlib.PurePath": _path,
    "pathlib.PosixPath": _path,
    "functools.partial": _partial,
    "tensorflow_datasets.load": _tfds_load,
    "builtins.enumerate": _enumerate,
    "builtins.zip": _zip,
    # ``@functools.wraps(f)`` returns a decorator that hands back the function it decorates.
    "functools.wraps": lambda ev, a, k: v.one(v.NAME, "builtins.staticmethod"),
    "builtins.staticmethod": _identity,
    "builtins.classmethod": _identity,
    "builtins.property": lambda ev, a, k: UNKNOWN_SET,
    "builtins.iter": lambda ev, a, k: UNKNOWN_SET,
}
