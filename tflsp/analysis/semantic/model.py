"""The module model: every block's semantic facts combined, in order, and evaluated to values.

Blocks are the module's top-level statements in order.  A module name read by module code of
block ``k`` holds what the last earlier block binding it left (:meth:`ModuleModel.entry`); a
module name read inside a function holds anything the module binds from that function's
definition on (:meth:`ModuleModel.global_value`: functions run later).  Functions and classes get
module-wide ids: the first top-level ``train_step`` is ``train_step``, a later redefinition
``train_step@2`` (a notebook that redefines a function per section has two functions).

Everything is evaluated lazily and remembered for the lifetime of one model (one summary).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, is_not

from tflsp.analysis.names import BUILTIN_NAMES, canonical
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.api import ApiKnowledge, ChainedApi, default_api
from tflsp.analysis.semantic.block import CallSem, ClassSem, FunctionSem, SemanticFacts
from tflsp.analysis.semantic.evaluate import Evaluator
from tflsp.analysis.semantic.imports import ImportedNames
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.semantic.values import Value, Values


@dataclass(frozen=True, slots=True)
class FunctionEntry:
    gid: str
    block: int
    facts: FunctionSem

    @property
    def display(self) -> str:
        return self.facts.local_id


@dataclass(frozen=True, slots=True)
class ClassEntry:
    gid: str
    block: int
    facts: ClassSem


class ModuleModel:
    def __init__(
        self,
        blocks: Sequence[SemanticFacts],
        *,
        keras_version: int = 3,
        api: ApiKnowledge | None = None,
        keys: Sequence[Hashable] | None = None,
        previous: ModuleModel | None = None,
        imported: ImportedNames | None = None,
    ) -> None:
        self.blocks = list(blocks)
        # Block identities that survive edits elsewhere (the engine's head and occurrence).
        self.keys: list[Hashable] = list(keys) if keys is not None else list(range(len(blocks)))
        self.facts_by_key = dict(zip(self.keys, self.blocks, strict=True))
        self.keras_version = keras_version
        self.api = api or default_api()
        # What sibling modules of the user's package export (None: this file alone).  Its
        # answers come first: a workspace class is a class of the user's, not a library's.
        self.imported = imported
        if imported is not None:
            self.api = ChainedApi(imported, self.api)
        self.evaluator: Evaluator
        self._lazy: frozenset[tuple[str, str]] | None = None  # see lazy_global_writers
        # The module's structure: which blocks define which top-level functions and classes
        # (their ids), and star imports.  Each module name's shape: which blocks bind it and
        # how.  An answer holds while the structure, the shapes of the names it looked up and
        # the facts of the blocks it read are unchanged (typing a module-level statement
        # changes one name, not the module).
        edited = _edited(previous, self) if previous is not None else None
        if (
            previous is not None
            and edited is not None
            and _same_imports(previous.imported, imported)
            and all(_structure(previous.blocks[k]) == _structure(self.blocks[k]) for k in edited)
        ):
            names = self._patch(previous, edited)
            if all(previous.blocks[k].lazy_globals == self.blocks[k].lazy_globals for k in edited):
                self._lazy = previous._lazy  # the same writers, with the same ids
            # What a caller reusing something computed from ``previous`` must recheck: the
            # edited blocks and the module names they bind (before or after the edit).
            self.edited: tuple[frozenset[int], frozenset[str]] | None = (
                frozenset(edited),
                frozenset(names),
            )
            changed: frozenset[int | str] = frozenset()
            if previous.keras_version == keras_version:
                shapes = previous.name_shapes
                changed = frozenset(
                    (*edited, *(n for n in names if shapes.get(n) != self.name_shapes.get(n)))
                )
                self.evaluator = Evaluator(self, previous.evaluator, changed)
            else:
                self.evaluator = Evaluator(self)
            return
        self.edited = None
        self._build()
        self.evaluator = Evaluator(self)

    def _build(self) -> None:
        self.gids: list[dict[str, str]] = []
        self._renamed: list[dict[str, str]] = []
        self.functions: dict[str, FunctionEntry] = {}
        self.classes: dict[str, ClassEntry] = {}
        self._exports: dict[str, list[tuple[int, Term, bool]]] = {}
        self._bindings: dict[str, list[tuple[int, Term]]] = {}
        self._export_blocks: dict[str, list[int]] = {}
        self._binding_blocks: dict[str, list[int]] = {}
        self._global_writes: dict[str, list[tuple[int, Term, str]]] = {}
        # name -> ids of the functions that write it through ``global``
        self.global_writers: dict[str, set[str]] = {}
        self.star_import_at: int | None = None
        counts: dict[str, int] = {}
        for k, facts in enumerate(self.blocks):
            renamed: dict[str, str] = {}
            for top in sorted(_tops(facts)):
                if top.startswith("<lambda"):
                    # Module-level lambdas are numbered within their block: one typed in a
                    # block must not renumber those of the blocks below.
                    renamed[top] = f"{top}@{k}"
                    continue
                n = counts.get(top, 0) + 1
                counts[top] = n
                renamed[top] = top if n == 1 else f"{top}@{n}"
            self._renamed.append(renamed)
            self.gids.append(self._add_definitions(k, facts, renamed))
            for name, term, definite in facts.exports:
                self._exports.setdefault(name, []).append((k, term, definite))
            for name, term in facts.bindings:
                self._bindings.setdefault(name, []).append((k, term))
            for name, term, writer in facts.global_writes:
                self._global_writes.setdefault(name, []).append((k, term, writer))
            if facts.star_import and self.star_import_at is None:
                self.star_import_at = k
        self._export_blocks = {n: [e[0] for e in found] for n, found in self._exports.items()}
        self._binding_blocks = {n: [e[0] for e in found] for n, found in self._bindings.items()}
        for name, writes in self._global_writes.items():
            self.global_writers[name] = {self.gid(k, writer) for k, _, writer in writes}
        self._methods: dict[str, dict[str, str]] = {gid: {} for gid in self.classes}
        for gid, fn_entry in self.functions.items():
            self._add_method(gid, fn_entry)
        self.structure = hash(
            tuple(
                (key, shape)
                for key, facts in zip(self.keys, self.blocks, strict=True)
                if (facts.functions or facts.classes or facts.star_import)
                and any(shape := _structure(facts))
            )
        )
        self.name_shapes = {
            name: self._shape(name)
            for name in (*self._exports, *self._bindings, *self._global_writes)
        }

    def _add_definitions(
        self, k: int, facts: SemanticFacts, renamed: dict[str, str]
    ) -> dict[str, str]:
        local_to_global: dict[str, str] = {}
        for fn in facts.functions:
            gid = _rename(fn.local_id, renamed)
            local_to_global[fn.local_id] = gid
            self.functions[gid] = FunctionEntry(gid, k, fn)
        for cls in facts.classes:
            gid = _rename(cls.local_id, renamed)
            local_to_global[cls.local_id] = gid
            self.classes[gid] = ClassEntry(gid, k, cls)
        return local_to_global

    def _add_method(self, gid: str, fn_entry: FunctionEntry) -> None:
        cls_local = fn_entry.facts.class_id
        if cls_local is not None:
            cls_gid = self.gids[fn_entry.block].get(cls_local)
            if cls_gid is not None:
                self._methods.setdefault(cls_gid, {})[fn_entry.facts.name] = gid

    def _shape(self, name: str) -> tuple[object, ...]:
        keys = self.keys
        return (
            tuple((keys[k], definite) for k, _, definite in self._exports.get(name, ())),
            tuple(keys[k] for k, _ in self._bindings.get(name, ())),
            tuple((keys[k], writer) for k, _, writer in self._global_writes.get(name, ())),
        )

    def _patch(self, previous: ModuleModel, edited: Sequence[int]) -> set[str]:
        """Build from ``previous`` when only the facts of the ``edited`` blocks changed, and
        their top-level functions and classes did not.  Returns the module names those
        blocks bind (before or after), whose shapes may have changed."""
        self._renamed = previous._renamed
        self.gids = list(previous.gids)
        self.functions = dict(previous.functions)
        self.classes = dict(previous.classes)
        self._exports = dict(previous._exports)
        self._bindings = dict(previous._bindings)
        self._global_writes = dict(previous._global_writes)
        self._export_blocks = dict(previous._export_blocks)
        self._binding_blocks = dict(previous._binding_blocks)
        self.global_writers = dict(previous.global_writers)
        self.star_import_at = previous.star_import_at
        self.structure = previous.structure
        self._methods = dict(previous._methods)
        names: set[str] = set()
        for k in edited:
            old, new = previous.blocks[k], self.blocks[k]
            for gid in previous.gids[k].values():
                self.functions.pop(gid, None)
                self.classes.pop(gid, None)
                self._methods.pop(gid, None)
            self.gids[k] = self._add_definitions(k, new, self._renamed[k])
            for gid in self.gids[k].values():
                if gid in self.classes:
                    self._methods[gid] = {}
            for facts in (old, new):
                names.update(name for name, _, _ in facts.exports)
                names.update(name for name, _ in facts.bindings)
                names.update(name for name, _, _ in facts.global_writes)
        for k in edited:
            for gid in self.gids[k].values():
                fn_entry = self.functions.get(gid)
                if fn_entry is not None:
                    cls_local = fn_entry.facts.class_id
                    cls_gid = self.gids[k].get(cls_local) if cls_local is not None else None
                    if cls_gid is not None and cls_gid not in self._methods:
                        self._methods[cls_gid] = dict(previous._methods.get(cls_gid, {}))
                    self._add_method(gid, fn_entry)
        changed = set(edited)
        for name in names:
            for table, new_items in (
                (
                    self._exports,
                    [(k, t, d) for k in edited for n, t, d in self.blocks[k].exports if n == name],
                ),
                (
                    self._bindings,
                    [(k, t) for k in edited for n, t in self.blocks[k].bindings if n == name],
                ),
                (
                    self._global_writes,
                    [
                        (k, t, w)
                        for k in edited
                        for n, t, w in self.blocks[k].global_writes
                        if n == name
                    ],
                ),
            ):
                kept = [e for e in table.get(name, ()) if e[0] not in changed]
                merged = sorted((*kept, *new_items), key=lambda e: e[0])
                if merged:
                    table[name] = merged
                else:
                    table.pop(name, None)
            exports = self._exports.get(name)
            if exports:
                self._export_blocks[name] = [e[0] for e in exports]
            else:
                self._export_blocks.pop(name, None)
            bindings = self._bindings.get(name)
            if bindings:
                self._binding_blocks[name] = [e[0] for e in bindings]
            else:
                self._binding_blocks.pop(name, None)
            writes = self._global_writes.get(name)
            if writes:
                self.global_writers[name] = {self.gid(k, w) for k, _, w in writes}
            else:
                self.global_writers.pop(name, None)
        self.name_shapes = dict(previous.name_shapes)
        for name in names:
            shape = self._shape(name)
            if any(shape):
                self.name_shapes[name] = shape
            else:
                self.name_shapes.pop(name, None)
        return names

    # -- ids --------------------------------------------------------------------------------
    def gid(self, block: int, local_id: str) -> str:
        return self.gids[block].get(local_id, local_id) if 0 <= block < len(self.gids) else local_id

    def function(self, gid: str) -> FunctionEntry | None:
        return self.functions.get(gid)

    def method(self, class_gid: str, name: str) -> str | None:
        """The method ``name`` of a local class, through its local bases."""
        seen: set[str] = set()
        pending = [class_gid]
        while pending:
            current = pending.pop(0)
            if current in seen:
                continue
            seen.add(current)
            found = self.evaluator.methods(current).get(name)
            if found is not None:
                return found
            pending.extend(self.local_bases(current))
        return None

    def lazy_global_writers(self) -> frozenset[tuple[str, str]]:
        """``(name, writer id)`` of ``global`` writers that only create the name once, while
        it is unset (``if X is None: X = ...``)."""
        if self._lazy is None:
            blocks = self.blocks
            self._lazy = frozenset(
                (name, self.gid(k, writer))
                for k in compress(range(len(blocks)), map(_LAZY_GLOBALS, blocks))
                for name, writer in blocks[k].lazy_globals
            )
        return self._lazy

    def local_bases(self, class_gid: str) -> list[str]:
        entry = self.classes.get(class_gid)
        if entry is None:
            return []
        out = []
        for base in entry.facts.bases:
            for value in self.value(base, entry.block):
                if value.kind == v.CLASS and value.is_local:
                    out.append(value.local_id)
        return out

    def mro(self, class_gid: str) -> Iterator[str]:
        seen: set[str] = set()
        pending = [class_gid]
        while pending:
            current = pending.pop(0)
            if current in seen:
                continue
            seen.add(current)
            yield current
            pending.extend(self.local_bases(current))

    # -- values -----------------------------------------------------------------------------
    def value(self, term: Term, block: int) -> Values:
        return self.evaluator.value(term, block)

    def entry(self, block: int, name: str) -> Values:
        """What module code at the start of ``block`` sees for ``name``."""
        # The answer depends only on the last earlier block binding the name: blocks that share
        # it share the memo entry.
        j = _last_before(self._export_blocks.get(name, ()), block)
        key = ("entry", name, j) if j is not None else ("entry", name, -1, block)
        # A cycle (a function's ``global`` write reading the name itself) starts from nothing.
        result: Values = self.evaluator._memoized(
            key, lambda: self._compute_entry(block, name), v.NOTHING
        )
        return result

    def _compute_entry(self, block: int, name: str) -> Values:
        self.evaluator.touch_name(name)
        blocks = self._export_blocks.get(name, ())
        j = _last_before(blocks, block)
        if j is None:
            later = [self.value(t, k) for k, t in self._bindings.get(name, ()) if k >= block]
            if later:
                # Read before the module binds it: a notebook run out of order, or a name a
                # later cell defines.  What the module binds is the best answer.
                return self._with_global_writes(name, v.join(later))
            return self._with_global_writes(name, self._unbound(name, block))
        k, term, definite = self._exports[name][j]
        found = self.value(term, k)
        if not definite:
            found = v.join((found, self.entry(k, name)))
        return self._with_global_writes(name, found)

    def _with_global_writes(self, name: str, found: Values) -> Values:
        """Functions that write the name through ``global`` may have run at any time."""
        writes = self._global_writes.get(name)
        if not writes:
            return found
        joined = v.join((found, *(self.value(t, k) for k, t, _ in writes)))
        # The writes may run any number of times: kinds hold, constants do not.
        return frozenset(v.without_constant(x) for x in joined)

    def _unbound(self, name: str, block: int) -> Values:
        if self.star_import_at is not None and self.star_import_at < block:
            return v.UNKNOWN_SET
        if name in BUILTIN_NAMES:
            return frozenset({Value(v.NAME, "builtins." + name)})
        if name in ("__name__", "__file__", "__doc__"):
            return frozenset({Value(v.STR)})
        return v.UNKNOWN_SET  # nothing here binds it (exec, a notebook's hidden state...)

    def binding_before(self, name: str, block: int) -> tuple[int, Term, bool] | None:
        """The last module-level binding of ``name`` live at the start of ``block``: (its
        block, the bound term, whether it surely replaces the earlier ones); None: none.
        Reads the model's tables only: the caller records what it depends on."""
        j = _last_before(self._export_blocks.get(name, ()), block)
        return None if j is None else self._exports[name][j]

    def only_binding(self, name: str) -> tuple[int, Term] | None:
        """The module's single binding of ``name`` (its block and term), None when the module
        binds it more than once or a function writes it through ``global``."""
        bindings = self._bindings.get(name, ())
        if len(bindings) != 1 or self._global_writes.get(name):
            return None
        return bindings[0]

    def global_value(self, block: int, name: str) -> Values:
        """What a function defined in ``block`` sees for module name ``name`` when it runs:
        the value after its definition, or any later binding."""
        after = _first_after(self._binding_blocks.get(name, ()), block)
        j = _last_before(self._export_blocks.get(name, ()), block + 1)
        key = ("global", name, after, j if j is not None else -1 - block)
        result: Values = self.evaluator._memoized(
            key, lambda: self._compute_global(block, name), v.NOTHING
        )
        return result

    def _compute_global(self, block: int, name: str) -> Values:
        self.evaluator.touch_name(name)
        parts = [self.entry(block + 1, name)]
        for k, term in self._bindings.get(name, ()):
            if k > block:
                parts.append(self.value(term, k))
        result = v.join(parts)
        if not result:
            result = self._unbound(name, len(self.blocks))
        return result

    def final(self, name: str) -> Values:
        """What the name holds once the whole module has run."""
        return self.entry(len(self.blocks), name)

    def returns(self, gid: str) -> Values:
        return self.evaluator.returns(gid)

    def class_base(self, gid: str) -> str:
        return self.evaluator.class_base(gid)

    def flavor_of(self, qualname: str) -> str:
        if qualname == "keras" or qualname.startswith("keras."):
            return "keras3" if self.keras_version == 3 else "tf_keras"
        return "tensorflow"

    # -- calls ------------------------------------------------------------------------------
    def calls(self) -> Iterator[tuple[int, CallSem]]:
        for k, facts in enumerate(self.blocks):
            for call in facts.calls:
                yield k, call

    def qualname(self, values: Values) -> str | None:
        return qualname_of(values)


def qualname_of(values: Values) -> str | None:
    """The one library name every value refers to (``tensorflow.print``), else None."""
    name: str | None = None
    for value in values:
        if value.kind not in (v.NAME, v.MODULE, v.CLASS, v.FUNCTION) or value.is_local:
            return None
        ref = canonical(value.ref) if value.kind == v.NAME else value.ref
        if not ref or (name is not None and ref != name):
            return None
        name = ref
    return name


def _same_imports(a: ImportedNames | None, b: ImportedNames | None) -> bool:
    return a is b or (a is not None and b is not None and a.fingerprint == b.fingerprint)


def _tops(facts: SemanticFacts) -> set[str]:
    return {
        i.split(".", 1)[0]
        for i in (*(f.local_id for f in facts.functions), *(c.local_id for c in facts.classes))
    }


_LAZY_GLOBALS = attrgetter("lazy_globals")


def _edited(previous: ModuleModel, model: ModuleModel) -> list[int] | None:
    """The blocks whose facts changed, when the blocks are the same ones (same identities)."""
    if previous.keys != model.keys:
        return None
    before, now = previous.blocks, model.blocks
    # Typing replaces one block's facts of thousands: the others are the very same objects,
    # skipped without a Python-level loop.
    return [k for k in compress(range(len(now)), map(is_not, before, now)) if before[k] != now[k]]


def _structure(facts: SemanticFacts) -> tuple[object, ...]:
    """The top-level functions and classes a block defines (in order: they get module-wide
    ids), and whether it star-imports."""
    return (
        tuple(
            f.local_id
            for f in facts.functions
            if "." not in f.local_id and not f.local_id.startswith("<lambda")
        ),
        tuple(c.local_id for c in facts.classes if "." not in c.local_id),
        facts.star_import,
    )


def _rename(local_id: str, renamed: dict[str, str]) -> str:
    top, dot, rest = local_id.partition(".")
    return renamed.get(top, top) + dot + rest


def _first_after(blocks: Sequence[int], block: int) -> int:
    """Index (in ``blocks``) of the first block number greater than ``block``."""
    lo, hi = 0, len(blocks)
    while lo < hi:
        mid = (lo + hi) // 2
        if blocks[mid] <= block:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _last_before(blocks: Sequence[int], block: int) -> int | None:
    """Index (in ``blocks``) of the last block number smaller than ``block``."""
    lo, hi = 0, len(blocks)
    while lo < hi:
        mid = (lo + hi) // 2
        if blocks[mid] < block:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1 if lo else None


__all__ = ["ClassEntry", "FunctionEntry", "ModuleModel", "canonical", "qualname_of"]
