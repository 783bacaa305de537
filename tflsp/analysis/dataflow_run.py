"""Run dataset-flow programs (:mod:`tflsp.analysis.dataflow`) and collect notes.

A dataset value knows its ancestry, an upper bound on its number of elements, whether it is
batched, and the nearest upstream step that reshuffles or draws random numbers.  Notes name
program sites (the dataset calls, numbered by the compiler) so detectors can map them back to
their own AST nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from tflsp.analysis.dataflow import (
    BATCH_METHODS,
    SIZE_KEEPING_METHODS,
    ArrayOf,
    Assign,
    Eval,
    Expr,
    FnInfo,
    IntConst,
    Method,
    Opaque,
    Program,
    Ref,
    Source,
    Stmt,
    Zip,
)
from tflsp.analysis.semantic.terms import Term

SiteKey = tuple[int, int]  # (block number, site) while a program runs


@dataclass(frozen=True, slots=True)
class DsValue:
    lineage: tuple[object, ...]  # identities of this value and its ancestors, oldest first
    size: int | None  # upper bound on the number of elements; None: unknown or infinite
    batched: SiteKey | None  # the batch step not undone by unbatch()
    reshuffled: SiteKey | None  # the nearest shuffle that reshuffles on every pass
    random: tuple[SiteKey, str] | None  # nearest source of randomness: (site, "shuffle"|"map")

    @property
    def key(self) -> object:
        return self.lineage[-1]


@dataclass(frozen=True, slots=True)
class ArrayValue:
    size: int | None


@dataclass(frozen=True, slots=True)
class IntValue:
    value: int


Value = DsValue | ArrayValue | IntValue


@dataclass(frozen=True, slots=True)
class Note:
    """Something a detector may report at ``site``; ``other`` is a related site."""

    tag: str  # batch-before-shuffle | split-after-reshuffle | unpaired-streams | empty-batch
    # | cache-after-shuffle
    site: SiteKey
    other: SiteKey | None = None
    data: tuple[object, ...] = ()


RandomCheck = Callable[[FnInfo], bool]
# Is this term (in this block) a tf.data dataset?  The semantic model answers.
DatasetCheck = Callable[[Term, int], bool]

# Methods only tf.data datasets have: calling one says the receiver is a dataset.
DATASET_ONLY_METHODS = frozenset(
    {
        "batch",
        "prefetch",
        "padded_batch",
        "unbatch",
        "flat_map",
        "interleave",
        "ragged_batch",
        "rebatch",
        "bucket_by_sequence_length",
        "with_options",
        "element_spec",
    }
)


class Flow:
    """Runs programs over one environment and collects :class:`Note` s."""

    def __init__(
        self,
        is_random_map: RandomCheck,
        constants: Iterable[tuple[str, int]] = (),
        is_dataset: DatasetCheck | None = None,
    ) -> None:
        self._is_dataset = is_dataset
        self.env: dict[str, Value | None] = {name: IntValue(v) for name, v in constants}
        self.notes: list[Note] = []
        self._is_random_map = is_random_map
        self._splits: dict[object, dict[str, SiteKey]] = {}
        self._split_noted: set[SiteKey] = set()
        self._values: dict[object, DsValue] = {}
        self._cuts: dict[SiteKey, bool] = {}

    def run(self, program: Program, block: int = 0) -> None:
        for stmt in program:
            self._stmt(stmt, block)

    def _stmt(self, stmt: Stmt, block: int) -> None:
        if isinstance(stmt, Assign):
            values = [self._eval(v, block) if v is not None else None for v in stmt.values]
            for name, value in zip(stmt.names, values, strict=True):
                self.env[name] = value
        elif isinstance(stmt, Eval):
            self._eval(stmt.value, block)
        else:
            saved = dict(self.env)
            for body in stmt.bodies:
                self.env = dict(saved)
                self.run(body, block)
            self.env = saved
            for name in stmt.assigned:
                self.env[name] = None

    def _eval(self, expr: Expr, block: int) -> Value | None:
        if isinstance(expr, Ref):
            if expr.name in self.env:
                return self.env[expr.name]
            return self._unknown(("name", expr.name)) if self._dataset(expr.term, block) else None
        if isinstance(expr, ArrayOf):
            return ArrayValue(expr.size)
        if isinstance(expr, IntConst):
            return IntValue(expr.value)
        if isinstance(expr, Opaque):
            known = self._dataset(expr.term, block)
            return self._unknown(("opaque", block, expr.site)) if known else None
        if isinstance(expr, Source):
            size = expr.size
            if size is None and expr.size_of is not None:
                bound = self.env.get(expr.size_of)
                if isinstance(bound, ArrayValue):
                    size = bound.size
                elif isinstance(bound, IntValue):
                    size = max(bound.value, 0)
            return self._record(DsValue(((block, expr.site),), size, None, None, None))
        if isinstance(expr, Zip):
            return self._zip(expr, block)
        return self._method(expr, block)

    def _dataset(self, term: Term | None, block: int) -> bool:
        return term is not None and self._is_dataset is not None and self._is_dataset(term, block)

    def _unknown(self, key: object) -> DsValue:
        return self._record(DsValue((key,), None, None, None, None))

    def _record(self, value: DsValue) -> DsValue:
        self._values[value.key] = value
        return value

    def _method(self, expr: Method, block: int) -> DsValue | None:
        base = self._eval(expr.base, block)
        if base is None and (expr.name in DATASET_ONLY_METHODS or expr.tf_data_only):
            # ``load().batch(4)``: the method itself says the receiver is a dataset.
            if isinstance(expr.base, Ref):
                base = self._unknown(("name", expr.base.name))
            elif isinstance(expr.base, Opaque):
                base = self._unknown(("opaque", block, expr.base.site))
        if not isinstance(base, DsValue):
            return None
        here: SiteKey = (block, expr.site)
        name = expr.name
        number = self._number(expr.number)
        size = _size_after(base.size, name, number, expr.flag)
        batched = base.batched
        reshuffled = base.reshuffled
        random = base.random
        if name in BATCH_METHODS:
            if (
                expr.flag is True
                and number is not None
                and base.size is not None
                and base.size < number
            ):
                self.notes.append(Note("empty-batch", here, None, (number, base.size)))
            if base.batched is not None and self._cuts.get(base.batched):
                # ``chars.batch(seq_len, drop_remainder=True).shuffle(n).batch(b)``: the first
                # batch cut a stream into equal sequences, the shuffle reorders sequences
                # (real-code-findings M8).
                lineage = set(base.lineage)
                self.notes = [
                    n
                    for n in self.notes
                    if not (
                        n.tag == "batch-before-shuffle"
                        and n.other == base.batched
                        and n.site in lineage
                    )
                ]
            batched = here
            self._cuts[here] = expr.flag is True  # drop_remainder=True: equal-length pieces
        elif name == "unbatch":
            batched = None
        elif name == "shuffle":
            if base.batched is not None:
                self.notes.append(Note("batch-before-shuffle", here, base.batched))
            if expr.flag is True:
                reshuffled = here
                random = (here, "shuffle")
                # ``shuffle().cache().shuffle()``: the later shuffle reorders the cached data.
                lineage = set(base.lineage)
                self.notes = [
                    n
                    for n in self.notes
                    if not (n.tag == "cache-after-shuffle" and n.site in lineage)
                ]
        elif name == "cache" and reshuffled is not None:
            # The cache stores the first pass in the shuffled order and replays it (TFL206).
            self.notes.append(Note("cache-after-shuffle", here, reshuffled))
        elif name == "map" and expr.fn is not None and self._is_random_map(expr.fn):
            random = (here, "map")
        elif name in ("take", "skip") and reshuffled is not None:
            self._split(base, name, here)
        if name == "concatenate" and expr.other is not None:
            other = self._eval(expr.other, block)
            size = (
                base.size + other.size
                if isinstance(other, DsValue) and base.size is not None and other.size is not None
                else None
            )
        value = replace(
            base,
            lineage=(*base.lineage, here),
            size=size,
            batched=batched,
            reshuffled=reshuffled,
            random=random,
        )
        return self._record(value)

    def _number(self, number: int | str | None) -> int | None:
        if isinstance(number, str):
            bound = self.env.get(number)
            return bound.value if isinstance(bound, IntValue) else None
        return number

    def constants(self) -> tuple[tuple[str, int], ...]:
        """Names bound to an int at the end of the run (``BATCH_SIZE = 32``)."""
        return tuple(sorted((k, v.value) for k, v in self.env.items() if isinstance(v, IntValue)))

    def _split(self, base: DsValue, name: str, here: SiteKey) -> None:
        seen = self._splits.setdefault(base.key, {})
        seen.setdefault(name, here)
        shuffle = base.reshuffled
        ready = "take" in seen and "skip" in seen
        if ready and shuffle is not None and shuffle not in self._split_noted:
            self._split_noted.add(shuffle)
            self.notes.append(Note("split-after-reshuffle", shuffle, here))

    def _zip(self, expr: Zip, block: int) -> DsValue | None:
        here: SiteKey = (block, expr.site)
        parts = [self._eval(p, block) for p in expr.parts]
        streams = [p for p in parts if isinstance(p, DsValue)]
        randomness = self._shared_randomness(streams)
        if randomness is not None:
            site, kind = randomness
            self.notes.append(Note("unpaired-streams", here, site, (kind,)))
        if expr.python or len(streams) != len(parts):
            return None
        sizes = [s.size for s in streams if s.size is not None]
        return self._record(DsValue((here,), min(sizes) if sizes else None, None, None, None))

    def _shared_randomness(self, streams: Sequence[DsValue]) -> tuple[SiteKey, str] | None:
        """The random step two of ``streams`` both descend from (each pass redraws it)."""
        for i, first in enumerate(streams):
            for second in streams[i + 1 :]:
                ancestor = self._common_ancestor(first, second)
                if ancestor is not None and ancestor.random is not None:
                    return ancestor.random
        return None

    def _common_ancestor(self, a: DsValue, b: DsValue) -> DsValue | None:
        common = None
        for x, y in zip(a.lineage, b.lineage, strict=False):
            if x != y:
                break
            common = x
        return self._values.get(common) if common is not None else None


def _size_after(size: int | None, name: str, n: int | None, flag: bool | None) -> int | None:
    if name in SIZE_KEEPING_METHODS:
        return size
    if name == "take":
        if n is None or n < 0:
            return size
        return n if size is None else min(size, n)
    if size is None:
        return None
    if name == "skip":
        return size if n is None or n < 0 else max(size - n, 0)
    if name in BATCH_METHODS:
        if n is None or n <= 0:
            return None
        return size // n if flag is True else -(-size // n)
    if name == "repeat":
        return None if n is None or n < 0 else size * n
    if name == "shard":
        return None if n is None or n <= 0 else -(-size // n)
    return None
