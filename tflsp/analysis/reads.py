"""Which parts of the module summary a block's detectors actually read.

Typing ``y = tf.reduce_sum(x)`` in one function adds ``y`` to the summary's assignments.  If
every block's cached findings depended on the whole summary, that keystroke would re-run every
detector on every block of the module.  Instead, the tables that change while typing inside
functions (assignments, dataset names, the graph-function map) note the keys read through
them while one block is checked; the findings are reused as long as those keys still hold the
same values.  Reading a table as a whole (iterating it) makes the block depend on all of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

_MISSING = object()


class ReadLog:
    """Collects reads while :attr:`active`; one log is shared by a summary's tables."""

    __slots__ = ("active", "keys", "whole")

    def __init__(self) -> None:
        self.active = False
        self.keys: dict[str, set[Hashable]] = {}
        self.whole: set[str] = set()

    def start(self) -> None:
        self.keys = {}
        self.whole = set()
        self.active = True

    def stop(self) -> None:
        self.active = False

    def key(self, table: str, key: Hashable) -> None:
        found = self.keys.get(table)
        if found is None:
            self.keys[table] = found = set()
        found.add(key)


class TrackedDict(dict):
    """A dict that reports the keys read through it to a :class:`ReadLog`."""

    __slots__ = ("_log", "_name")

    def __init__(self, name: str, log: ReadLog, data: Any = ()) -> None:
        super().__init__(data)
        self._name = name
        self._log = log

    def get(self, key: Any, default: Any = None) -> Any:
        if self._log.active:
            self._log.key(self._name, key)
        return dict.get(self, key, default)

    def __getitem__(self, key: Any) -> Any:
        if self._log.active:
            self._log.key(self._name, key)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        if self._log.active:
            self._log.key(self._name, key)
        return dict.__contains__(self, key)

    def _scan(self) -> None:
        if self._log.active:
            self._log.whole.add(self._name)

    def __iter__(self) -> Iterator[Any]:
        self._scan()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._scan()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._scan()
        return dict.keys(self)

    def values(self) -> Any:
        self._scan()
        return dict.values(self)

    def items(self) -> Any:
        self._scan()
        return dict.items(self)

    def copy(self) -> dict:
        self._scan()
        return dict(dict.items(self))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (sent to another process) as a plain dict: the log stays behind.
        return (dict, (dict(dict.items(self)),))


class TrackedSet(frozenset):
    """A frozenset that reports membership tests to a :class:`ReadLog`."""

    _name: str
    _log: ReadLog

    def __new__(cls, name: str, log: ReadLog, data: Any = ()) -> TrackedSet:
        made = super().__new__(cls, data)
        made._name = name
        made._log = log
        return made

    def __contains__(self, key: object) -> bool:
        if self._log.active:
            self._log.key(self._name, key)
        return frozenset.__contains__(self, key)

    def __iter__(self) -> Iterator[Any]:
        if self._log.active:
            self._log.whole.add(self._name)
        return frozenset.__iter__(self)

    def __len__(self) -> int:
        if self._log.active:
            self._log.whole.add(self._name)
        return frozenset.__len__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (frozenset, (list(frozenset.__iter__(self)),))


def _scanning(name: str) -> Any:
    """A frozenset method that looks at every element: the whole set becomes a dependency."""
    base = getattr(frozenset, name)

    def method(self: TrackedSet, *args: Any) -> Any:
        if self._log.active:
            self._log.whole.add(self._name)
        return base(self, *args)

    method.__name__ = name
    return method


# Set algebra runs in C without calling __iter__; note those reads explicitly.  (A plain
# ``frozenset(tracked)`` copy cannot be intercepted: use ``in`` or iterate instead.)
for _name in (
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__sub__",
    "__rsub__",
    "__xor__",
    "__rxor__",
    "__le__",
    "__lt__",
    "__ge__",
    "__gt__",
    "intersection",
    "union",
    "difference",
    "symmetric_difference",
    "isdisjoint",
    "issubset",
    "issuperset",
    "copy",
):
    setattr(TrackedSet, _name, _scanning(_name))


@dataclass(frozen=True)
class Dependencies:
    """What one block's findings were computed from, beyond the summary's core fingerprint."""

    values: tuple[tuple[str, Hashable, object], ...]  # (table, key, value read)
    digests: tuple[tuple[str, int], ...]  # (table, digest) for tables read as a whole
    # The semantic model: the module's structure, the facts of every block whose facts the
    # block's questions read (by block identity), and the shape of every module name they
    # looked up (where the module binds it).
    structure: int = 0
    blocks: tuple[tuple[Hashable, object], ...] = ()
    names: tuple[tuple[str, object], ...] = ()

    @property
    def atoms(self) -> frozenset[Hashable]:
        """Everything read, as atoms a summary's :attr:`TrackedTables.delta` can name."""
        found = self.__dict__.get("_atoms")
        if found is None:
            found = frozenset(
                (
                    *(("b", key) for key, _ in self.blocks),
                    *(("n", name) for name, _ in self.names),
                    *(("t", table, key) for table, key, _ in self.values),
                    *(("d", table) for table, _ in self.digests),
                )
            )
            object.__setattr__(self, "_atoms", found)
        return found


class SemanticSource(Protocol):
    """What the tables need from the semantic model (:class:`ModuleModel`)."""

    structure: int
    facts_by_key: dict[Hashable, Any]
    name_shapes: dict[str, Any]


class TrackedTables:
    """The tracked tables of one summary, by name, with their digests."""

    def __init__(
        self,
        log: ReadLog,
        tables: dict[str, TrackedDict | TrackedSet],
        model: SemanticSource | None = None,
    ) -> None:
        self.log = log
        self.tables = tables
        self.model = model
        self._digests: dict[str, int] = {}
        # What changed since the previous summary's tables (:meth:`compare`), as atoms of
        # :attr:`Dependencies.atoms`; None when unknown (then every read is checked).
        self.delta: frozenset[Hashable] | None = None
        self.predecessor: int | None = None  # id of the tables the delta is relative to

    def compare(
        self, previous: TrackedTables, blocks: Iterable[Hashable], names: Iterable[str]
    ) -> None:
        """Record what changed since ``previous``: the given block identities and names, and
        the table entries whose values differ."""
        atoms: set[Hashable] = {("b", key) for key in blocks}
        atoms.update(("n", name) for name in names)
        for table, now in self.tables.items():
            before = previous.tables.get(table)
            if before is None:
                return
            if before is now:
                continue
            changed = False
            if isinstance(now, TrackedDict) and isinstance(before, TrackedDict):
                for key in dict.keys(before) | dict.keys(now):
                    if dict.get(before, key, _MISSING) != dict.get(now, key, _MISSING):
                        atoms.add(("t", table, key))
                        changed = True
            elif now != before:
                atoms.update(("t", table, key) for key in frozenset(now) ^ frozenset(before))
                changed = True
            if changed:
                atoms.add(("d", table))
        self.delta = frozenset(atoms)
        self.predecessor = id(previous)

    def lookup(self, table: str, key: Hashable) -> object:
        found = self.tables[table]
        if isinstance(found, TrackedSet):
            return frozenset.__contains__(found, key)
        return dict.get(found, key, _MISSING)

    def digest(self, table: str) -> int:
        value = self._digests.get(table)
        if value is None:
            found = self.tables[table]
            if isinstance(found, TrackedSet):
                value = hash(frozenset(frozenset.__iter__(found)))
            else:
                value = hash(frozenset(dict.items(found)))
            self._digests[table] = value
        return value

    def snapshot(
        self, blocks: tuple[tuple[Hashable, object], ...] = (), names: Iterable[str] = ()
    ) -> Dependencies:
        """The dependencies recorded since :meth:`ReadLog.start` (``blocks``: the semantic
        facts read, by block identity; ``names``: the module names looked up)."""
        log = self.log
        values = tuple(
            (table, key, self.lookup(table, key))
            for table, keys in log.keys.items()
            if table not in log.whole
            for key in keys
        )
        digests = tuple((table, self.digest(table)) for table in sorted(log.whole))
        model = self.model
        if model is None:
            return Dependencies(values, digests, 0, blocks)
        shapes = model.name_shapes
        return Dependencies(
            values,
            digests,
            model.structure,
            blocks,
            tuple((name, shapes.get(name)) for name in sorted(names)),
        )

    def still_hold(self, deps: Dependencies) -> bool:
        model = self.model
        if model is not None:
            if model.structure != deps.structure:
                return False
            facts = model.facts_by_key
            for key, seen in deps.blocks:
                now = facts.get(key)
                if now is not seen and now != seen:
                    return False
            shapes = model.name_shapes
            for name, shape in deps.names:
                if shapes.get(name) != shape:
                    return False
        lookup = self.lookup
        for table, key, value in deps.values:
            if lookup(table, key) != value:
                return False
        return all(self.digest(table) == digest for table, digest in deps.digests)
