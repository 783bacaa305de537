"""A family's module fact made method by method, for a class block being typed in.

A family registers its fact ``by_method`` (see :class:`tflsp.analysis.registry.ByMethod`) when
the fact's value for a block is its methods' contributions put together with what the rest of
the block gives.  While one method of a class is typed in, the block's next version then takes
the other methods' parts from its last version, under the keys the semantic part uses
(:class:`~tflsp.analysis.semantic.block.MethodKey`: the method's text and the local ids in it),
and works out only the edited method and what runs in the class body.

What a part may read, so that its key covers it:

- the syntax of its method anywhere, decorators to last line (the key's text), and the ids
  ``NodeIndex.scope_id`` gives the method and what it holds (its class's name and its own are
  in its local ids; a lambda's holds the lambda's line, which moves with the method: see
  :func:`lambda_lines`);
- the terms of its body: a method's body reads only its own names (see ``MethodSem``).

Never a term of its header (decorators, defaults, annotations: they run in the class body and
read the names other members bind), nor anything outside the method: ``whole`` works those out
on every version, from the nodes outside the methods' bodies.  A part asks for terms in the
order the fact's plain ``extract`` asks for them in its method, since a term cut short by a
loop depends on that order (see ``TermBuilder.cuts``); whole asks in that order outside.  The
methods' bodies and what lies outside them share no term, so the two may come in any order.
Parts are kept with the method's semantic part, so never for a method whose terms were cut.
A part that cannot be made from its method alone is None: the method is then left to ``whole``
with the class body (``saving.unbuilt_loads``: a class in the method, whose body's names count
as the module's).

A fact's ``extract(index)`` gives what ``whole(index, NO_METHODS)`` gives: both are written over
the helpers that work out one stretch, and ``extract`` calls them on the whole block, so that a
fresh analysis pays nothing for the split.
"""

from __future__ import annotations

import ast
import operator
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from tflsp.analysis.index import FunctionNode, NodeIndex

Position = tuple[int, int]
N = TypeVar("N", bound=ast.AST)
P = TypeVar("P")  # what a fact's part for one method is
V = TypeVar("V")
line_col: Callable[[ast.AST], Position] = operator.attrgetter("lineno", "col_offset")


class Stretches:
    """Where each method's stretch (its body, or the whole method) lies in the block's lists
    of nodes: two bisections per method and list, made once for every fact that cuts the
    list (the lists are the index's, in source order)."""

    __slots__ = ("_found", "heads", "spans")

    def __init__(self, spans: Sequence[tuple[Position, Position]], heads: Sequence[int]) -> None:
        self.spans = spans  # each method's (start, end)
        self.heads = heads  # the line of each method's first decorator (or of its ``def``)
        # id of a list -> the list (held, so that its id is not another's) and its bounds
        self._found: dict[int, tuple[Sequence[ast.AST], list[tuple[int, int]]]] = {}

    def bounds(self, items: Sequence[ast.AST]) -> list[tuple[int, int]]:
        """For each method, the slice of ``items`` in its stretch."""
        found = self._found.get(id(items))
        if found is not None and found[0] is items:
            return found[1]
        out: list[tuple[int, int]] = []
        done = 0
        for start, end in self.spans:
            low = bisect_left(items, start, lo=done, key=line_col)
            done = bisect_right(items, end, lo=low, key=line_col)
            out.append((low, done))
        self._found[id(items)] = (items, out)
        return out


class MethodBody:
    """One method of a class block, as its part sees it: the nodes of its stretch (its body,
    or the whole method when the fact reads its header too)."""

    __slots__ = ("_k", "_stretches", "index", "node")

    def __init__(self, index: NodeIndex, node: FunctionNode, stretches: Stretches, k: int) -> None:
        self.index = index
        self.node = node
        self._stretches = stretches
        self._k = k

    @property
    def head(self) -> int:
        """The line of the method's first decorator (or of its ``def``)."""
        return self._stretches.heads[self._k]

    def nodes(self, kind: type[N]) -> list[N]:
        """The nodes of exactly this type in the part's stretch, in source order."""
        found = self.index.nodes(kind)
        low, high = self._stretches.bounds(found)[self._k]
        return found[low:high]

    def header(self, kind: type[N]) -> list[N]:
        """The nodes of exactly this type before the part's stretch in the method (its
        decorators, defaults and annotations when the stretch is its body): syntax to read,
        never terms."""
        found = self.index.nodes(kind)
        high = self._stretches.bounds(found)[self._k][0]
        return found[bisect_left(found, (self.head, 0), hi=high, key=line_col) : high]


class Piece(Generic[P]):
    """A method of the block and its part, in the place of its stretch's nodes."""

    __slots__ = ("head", "node", "part")

    def __init__(self, node: FunctionNode, head: int, part: P) -> None:
        self.node = node
        self.head = head
        self.part = part


class Pieces(Generic[P]):
    """The methods whose parts ``whole`` is given, in the place of their stretches."""

    __slots__ = ("_places", "_stretches", "pieces")

    def __init__(self, stretches: Stretches, places: Sequence[Piece[P] | None]) -> None:
        self._stretches = stretches
        # A piece for each of the stretches' methods, None for those left to ``whole``.
        self._places = places
        self.pieces = [piece for piece in places if piece is not None]  # in source order

    def cut(self, items: Sequence[N]) -> Iterator[tuple[Piece[P] | None, Sequence[N]]]:
        """``items`` (nodes of the index, in source order) run by run: ``(None, run)`` for
        the nodes outside the pieces' stretches, ``(piece, ())`` in the place of each."""
        if not self.pieces:
            if items:
                yield None, items
            return
        done = 0
        for piece, (low, high) in zip(self._places, self._stretches.bounds(items), strict=True):
            if piece is None:
                continue  # its nodes stay in the run outside
            if low > done:
                yield None, items[done:low]
            yield piece, ()
            done = high
        if done < len(items):
            yield None, items[done:]

    def outside(self, items: Sequence[N]) -> Sequence[N]:
        """The nodes outside every piece's stretch, in source order."""
        if not self.pieces:
            return items
        return [item for piece, run in self.cut(items) if piece is None for item in run]

    def weave(
        self, found: Sequence[tuple[ast.AST, V]], of_part: Callable[[P], Iterable[V]]
    ) -> list[V]:
        """The values ``found`` for nodes outside the pieces' stretches (in source order),
        with each piece's own (``of_part``) in its place."""
        if not self.pieces:
            return [value for _, value in found]
        out: list[V] = []
        done = 0
        for piece, (start, _) in zip(self._places, self._stretches.spans, strict=True):
            if piece is None:
                continue
            low = bisect_left(found, start, lo=done, key=_node_position)
            out.extend(value for _, value in found[done:low])
            out.extend(of_part(piece.part))
            done = low
        out.extend(value for _, value in found[done:])
        return out


def _node_position(item: tuple[ast.AST, object]) -> Position:
    return line_col(item[0])


# The whole block worked out: a fresh extraction.
NO_METHODS: Pieces[Any] = Pieces(Stretches((), ()), ())

_LAMBDA_LINE = re.compile(r"<lambda:(-?\d+):")


def lambda_lines(scope: str, by: int) -> str:
    """``scope`` (a ``NodeIndex.scope_id``) with its lambdas' lines moved ``by`` lines: a part
    keeps them counted from its method's first line, and ``whole`` puts them back where the
    method now lies."""
    if "<lambda:" not in scope:
        return scope
    return _LAMBDA_LINE.sub(lambda m: f"<lambda:{int(m.group(1)) + by}:", scope)
