"""A module text as block views, kept from one version of the text to the next.

A view is a block (one top-level statement, see :mod:`tflsp.analysis.blocks`) at its place in
the module.  The :class:`Cutter` turns a text into views and remembers them: after an edit, the
views before the edited stretch are the old ones, those after it the old ones moved by the lines
the edit added, and only the stretch in between is cut again, so a keystroke costs what it
changed rather than a pass over every block of the module.  Blocks are cached by text (the
versions of the edited block the last two cuts used); a half-typed line reuses the tree of its
recovered text (:mod:`tflsp.analysis.parsing`).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from tflsp.analysis.blocks import Chunk, Split, lexical_extent, resplit
from tflsp.analysis.facts import EMPTY_FACTS, FLOW_DONOR, BlockFacts, extract_facts
from tflsp.analysis.generations import Generations
from tflsp.analysis.graft import graft_method
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.parsing import ParsedBlock, SyntaxProblem, parse_block, try_parse
from tflsp.analysis.registry import ModuleFact
from tflsp.analysis.suppressions import Suppression, find_suppressions

_MAX_MERGE = 3  # how many following candidates a block that "ended early" may swallow


@dataclass(eq=False)
class BlockAnalysis:
    text: str
    parsed: ParsedBlock
    index: NodeIndex | None
    suppressions: dict[int, Suppression]
    module_facts: tuple[ModuleFact, ...] = ()
    _facts: BlockFacts | None = None
    _head: str | None = None
    _identity: str | None = None
    # Blocks whose recovery gave the same text share its tree, index and facts; the cell
    # counts them, so the last one dropped clears the memos (see release).
    _sharers: list[int] | None = None

    @property
    def head(self) -> str:
        """What identifies the block while it is edited (see :func:`_head`), computed once."""
        if self._head is None:
            self._head = _head(self.text)
        return self._head

    @property
    def identity(self) -> str:
        """The block's identity in the semantic model (see :func:`_identity`), computed once."""
        if self._identity is None:
            self._identity = _identity(self.head)
        return self._identity

    def release(self) -> None:
        """Dropped from the cache: break the cycles its memos make with its tree.

        What detectors and the semantic model memoise on a block's index points back at the index
        (and so at the whole tree).  Left as cycles, every typed version of the edited block would
        wait for a full collection, which a busy server runs rarely (see
        :mod:`tflsp.server.memory`); cleared here, reference counting frees them at once.
        """
        if self._sharers is not None:
            self._sharers[0] -= 1
            if self._sharers[0] > 0:
                return
        if self.index is not None:
            self.index.memo.clear()

    @property
    def facts(self) -> BlockFacts:
        """Computed on first use: a half-typed block that keeps its last facts never needs them."""
        if self._facts is None:
            index = self.index
            found = extract_facts(index, self.module_facts) if index is not None else EMPTY_FACTS
            self._facts = found
        return self._facts

    def facts_after(self, before: BlockFacts | None) -> BlockFacts:
        """The facts, computed (once) from those of the block's earlier version: what the edit
        left alone is taken from ``before``, which is read, not kept (the new facts hold
        values only, never a tree)."""
        if self._facts is None and before is not None and self.index is not None:
            text = self.parsed.recovered or self.text  # what the tree was parsed from
            self._facts = extract_facts(self.index, self.module_facts, before, text)
        return self.facts


@dataclass(frozen=True)
class BlockView:
    start_line: int  # 1-based module line of the block's first line
    analysis: BlockAnalysis

    @property
    def end_line(self) -> int:
        return (
            self.start_line
            + self.analysis.text.count("\n")
            - (1 if self.analysis.text.endswith("\n") else 0)
        )


@dataclass(frozen=True)
class Edit:
    """How the views of a new text relate to the last text's: ``views[:start]`` are the old
    ones, ``views[start:stop]`` are new, and ``views[stop:]`` are the old ``views[old_stop:]``
    moved ``shift`` lines down.  ``replaced`` are the old ``views[start:old_stop]``."""

    views: list[BlockView]
    start: int
    stop: int
    old_stop: int
    shift: int
    replaced: list[BlockView]


def _no_graft(text: str) -> None:
    return None


def _release_unless_live(live: dict[int, int], analysis: BlockAnalysis) -> None:
    """Out of the block cache: released unless a view holds it."""
    if id(analysis) not in live:
        analysis.release()


class Cutter:
    """Cuts texts into views, keeping the last text's views where the text did not change."""

    def __init__(self, module_facts: tuple[ModuleFact, ...] = ()) -> None:
        self._module_facts = module_facts
        # id of a block analysis -> how many views of the last text hold it.  Those blocks live
        # in the views; the cache holds the blocks the last two cuts made or looked up.
        self._live: dict[int, int] = {}
        # (A bound method here would make the cutter a reference cycle, left to the collector
        # with every tree it holds.)
        self._blocks: Generations[str, BlockAnalysis] = Generations(
            dropped=partial(_release_unless_live, self._live)
        )
        self._unparsable: Generations[str, bool] = Generations()  # merges that failed
        # recovered text -> the block analysis whose recovery gave it (see _block)
        self._recoveries: Generations[str, BlockAnalysis] = Generations()
        self._split: Split | None = None
        self._views: list[BlockView] = []
        self._firsts: list[int] = []  # index in the split's chunks of each view's first chunk
        self._broken: list[int] = []  # the views whose block has a syntax error, in order (few)
        self._owner = True  # a fork reads its parent's blocks and must never release them

    @property
    def views(self) -> list[BlockView]:
        return self._views

    def fork(self) -> Cutter:
        """A cutter that reads this one's blocks (the cache's and the views') and keeps none of
        its own state: what it cuts and caches is its own, and it never releases a block."""
        twin = Cutter(self._module_facts)
        twin._owner = False
        blocks: Generations[str, BlockAnalysis] = Generations(self._blocks)
        for view in self._views:
            blocks.put(view.analysis.text, view.analysis)
        twin._blocks = Generations(blocks)
        twin._unparsable = Generations(self._unparsable)
        twin._recoveries = Generations(self._recoveries)
        return twin

    def rotate(self) -> None:
        """The end of an analysis: what the caches held for the one before is dropped now."""
        self._blocks.rotate()
        self._unparsable.rotate()
        self._recoveries.rotate()

    def advance(self, source: str, *, afresh: bool = False) -> Edit:
        """The views of ``source``, keeping the last text's where the text is unchanged
        (``afresh``: none of them, e.g. when what the caller keeps per view was lost).

        A view is kept when the candidate chunks it was cut from are unchanged and so is what
        decided its extent: a block that parses (or fails in itself) is its own chunk, but one
        that stopped inside a bracket or string was merged with, or tried against, the chunks
        after it, so it is kept after the edit, not before it.  A block with a syntax error
        after the edit is kept only where the edit did not move it: the engine gives a broken
        block what it said last time at its line, which a moved one would not find.
        """
        old_split = None if afresh else self._split
        split = resplit(source, old_split)
        views, firsts = self._views, self._firsts
        n_old = len(views)
        if old_split is not None and split is old_split:
            return Edit(views, n_old, n_old, n_old, 0, [])
        if old_split is None:
            start, kept, chunk_shift = 0, n_old, 0
        else:
            start = self._kept_before(split.head)
            kept = max(self._kept_after(split), start)
            chunk_shift = len(split.chunks) - len(old_split.chunks)
        chunks = split.chunks
        cut: list[BlockView] = []
        cut_firsts: list[int] = []
        i = firsts[start] if start < n_old else 0
        # One block edited in place: its last version may spare parsing all of it again.
        previous = views[start].analysis if kept == start + 1 else None
        while i < len(chunks):
            while kept < n_old and firsts[kept] + chunk_shift < i:
                kept += 1  # swallowed by a merge that ran into the kept stretch
            if kept < n_old and firsts[kept] + chunk_shift == i:
                break
            view, taken = self._view_at(chunks, i, previous)
            previous = None
            cut.append(view)
            cut_firsts.append(i)
            i += taken
        else:
            kept = n_old
        for view in cut:
            self._hold(view.analysis)
        replaced = views[start:kept]
        for view in replaced:
            self._let_go(view.analysis)
        stop = start + len(cut)
        shift = split.shift
        after = views[kept:]
        if shift:
            after = [BlockView(view.start_line + shift, view.analysis) for view in after]
        firsts_after = firsts[kept:]
        if chunk_shift:
            firsts_after = [first + chunk_shift for first in firsts_after]
        self._broken = [
            *(k for k in self._broken if k < start),
            *(start + m for m, view in enumerate(cut) if view.analysis.parsed.error),
            *(k - kept + stop for k in self._broken if k >= kept),
        ]
        self._split = split
        self._views = views[:start] + cut + after
        self._firsts = firsts[:start] + cut_firsts + firsts_after
        return Edit(self._views, start, stop, kept, shift, replaced)

    def _kept_before(self, head: int) -> int:
        """How many of the last views lie in the first ``head`` chunks of the new split (the
        old ones), up to the first whose extent depended on the chunks after it."""
        views, firsts = self._views, self._firsts
        assert self._split is not None
        count = bisect_right(firsts, head, 1) - 1  # views ending where the next one starts
        if count == len(views) - 1 and len(self._split.chunks) <= head:
            count += 1
        for k in self._broken:
            if k >= count:
                break
            error = views[k].analysis.parsed.error
            if error is not None and error.ends_early:
                return k
        return count

    def _kept_after(self, split: Split) -> int:
        """The first of the last views from which on every view lies in the chunks the new
        split kept at its end; when those moved, the first after the last broken view."""
        assert self._split is not None
        if not split.tail:
            return len(self._views)
        kept = bisect_left(self._firsts, len(self._split.chunks) - split.tail)
        if split.shift and self._broken and self._broken[-1] >= kept:
            kept = self._broken[-1] + 1
        return kept

    # -- blocks ----------------------------------------------------------------------------
    def _hold(self, analysis: BlockAnalysis) -> None:
        key = id(analysis)
        self._live[key] = self._live.get(key, 0) + 1

    def _let_go(self, analysis: BlockAnalysis) -> None:
        """A view is replaced: its block goes back to the cache for the next two cuts (undoing
        the edit finds it there), or is released when the cache has another block of its
        text."""
        key = id(analysis)
        count = self._live[key] - 1
        if count:
            self._live[key] = count
            return
        del self._live[key]
        cached = self._blocks.peek(analysis.text)
        if cached is None:
            self._blocks.put(analysis.text, analysis)
        elif cached is not analysis and self._owner:
            analysis.release()

    def _block(self, text: str, previous: BlockAnalysis | None = None) -> BlockAnalysis:
        """The block of ``text``; ``previous`` is the version the edit changed, when known: its
        tree spares parsing the whole of a class typed into (see :mod:`tflsp.analysis.graft`)."""
        cached = self._blocks.get(text)
        if cached is not None:
            return cached
        graft: Callable[[str], ast.Module | None] = _no_graft
        grafts: list[ast.Module] = []
        if previous is not None and previous.parsed.tree is not None:
            # (a half-typed version's tree is that of its recovered text)
            source = previous.parsed.recovered or previous.text

            def graft(text: str, old: ast.Module = previous.parsed.tree) -> ast.Module | None:
                tree = graft_method(old, source, text)
                if tree is not None:
                    grafts.append(tree)
                return tree

        donors = self._recoveries
        donor: BlockAnalysis | None = None

        def known(recovered: str) -> ast.Module | None:
            nonlocal donor
            donor = donors.get(recovered)
            return donor.parsed.tree if donor is not None else graft(recovered)

        grafted = graft(text)
        parsed = ParsedBlock(grafted, None) if grafted is not None else parse_block(text, known)
        module_facts = self._module_facts
        if donor is not None and parsed.tree is donor.parsed.tree:
            # The same recovered text as an earlier version of the line being typed: its tree
            # is this one, and so are the index and facts made from it.
            sharers = donor._sharers
            assert sharers is not None
            sharers[0] += 1
            analysis = BlockAnalysis(
                text, parsed, donor.index, find_suppressions(text), module_facts, donor._facts
            )
            analysis._sharers = sharers
        else:
            index = NodeIndex(parsed.tree) if parsed.tree is not None else None
            analysis = BlockAnalysis(text, parsed, index, find_suppressions(text), module_facts)
            if parsed.recovered is not None and index is not None:
                analysis._sharers = [1]
                donors.put(parsed.recovered, analysis)
        if grafts and analysis.index is not None and analysis.index.tree is grafts[-1]:
            # The methods the grafted tree shares with the last version were walked then.
            assert previous is not None and previous.index is not None
            semantics = previous.index.memo.get("semantics")
            if semantics is not None:
                analysis.index.memo[FLOW_DONOR] = semantics.flow
        self._blocks.put(text, analysis)
        return analysis

    def _view_at(
        self, chunks: list[Chunk], i: int, previous: BlockAnalysis | None = None
    ) -> tuple[BlockView, int]:
        """The view starting at candidate ``i``, and how many candidates it takes."""
        chunk = chunks[i]
        analysis = self._block(chunk.text, previous)
        error = analysis.parsed.error
        if (
            error is not None
            and error.ends_early
            and i + 1 < len(chunks)
            and _may_continue(error.message, chunks[i + 1].text)
        ):
            # The candidate stopped inside a bracket or string that a column-0 line
            # continues: try it together with what follows.  While a line is being typed
            # the merge fails on every keystroke, so a bare parse decides first.
            for extra in _merge_candidates(chunks, i, error):
                text = "".join(c.text for c in chunks[i : i + extra + 1])
                merged = self._blocks.get(text)
                if merged is None:
                    if self._unparsable.get(text) is not None:
                        continue
                    if try_parse(text)[1] is not None:
                        # Typing elsewhere leaves this text as it is: do not parse it
                        # again on every keystroke.
                        self._unparsable.put(text, True)
                        continue
                    merged = self._block(text)
                if merged.parsed.error is None:
                    return BlockView(chunk.start_line, merged), extra + 1
        return BlockView(chunk.start_line, analysis), 1


# Statements that cannot appear inside an open bracket: a candidate that stopped inside a
# bracket is not continued by a chunk starting with one of them (typically the next function
# after a half-typed line).  Strings can hold anything, so this applies to brackets only.
_STATEMENT_RE = re.compile(
    r"(?:async[ \t]+def|def|class|import|return|raise|pass|try|while|with|del|global|nonlocal|assert)\b"
)


def _may_continue(message: str, following: str) -> bool:
    return "was never closed" not in message or _STATEMENT_RE.match(following) is None


_MAX_RUN = 400  # a string may span at most this many column-0 candidates
_MAX_BRACKET_RUN = 64  # an open bracket, this many (kept small: it is hit while typing)


def _merge_candidates(chunks: list[Chunk], i: int, error: SyntaxProblem) -> list[int]:
    """How many following candidates to try merging with candidate ``i``, in order.

    A few small steps cover the usual case.  When a string or bracket has lines in column 0
    (module docstrings, embedded code samples, decorator arguments, data tables), a lexical
    scan finds the candidate where it closes and the merge jumps straight there.
    """
    available = len(chunks) - i - 1
    steps = list(range(1, min(_MAX_MERGE, available) + 1))
    bracket = "was never closed" in error.message
    window = min(available, _MAX_BRACKET_RUN if bracket else _MAX_RUN)
    texts = [c.text for c in chunks[i : i + window + 1]]
    extent = lexical_extent(texts, _STATEMENT_RE if bracket else None)
    return steps if extent is None else _around(steps, extent, available)


def _around(steps: list[int], extra: int, available: int) -> list[int]:
    """Small steps up to ``extra``, then one more: a decorator whose arguments span
    column-0 lines still needs the ``def`` that follows its closing candidate."""
    out = [n for n in steps if n <= extra]
    out.extend(n for n in (extra, extra + 1) if n <= available and n not in out)
    return out


_DEF_NAME_RE = re.compile(r"(?:async\s+)?(?:def|class)\s+\w+")


def _head(text: str) -> str:
    """What identifies a block while it is being edited: its decorators and, for a function or
    class, ``def name`` (the parameters may be the part being typed); otherwise its first line."""
    start = 0
    while True:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        stripped = line.lstrip()
        if end < 0 or (stripped and not stripped.startswith(("@", "#"))):
            found = _DEF_NAME_RE.match(stripped)
            return text[:start] + (found.group() if found else line)
        start = end + 1


# The identity of every block that is not a function or class in the semantic model: such a
# block is known by its place (which of these blocks it is), since its first line is what is
# being typed.
STATEMENT = "<statement>"


def _identity(head: str) -> str:
    last = head.rpartition("\n")[2].lstrip()
    if not last or last.startswith("#") or _DEF_NAME_RE.match(last):
        return head  # a def or class by its name; blank lines and comments by their text
    return STATEMENT
