"""Run the detectors over a module, block by block, reusing everything that did not change.

Three caches make a one-line edit cheap:

1. block text -> parse tree, node index, facts, suppressions;
2. the facts of all blocks -> module summary (reused when no block's facts changed);
3. (block text, summary core fingerprint) -> findings, valid while the entries of the tracked
   summary tables (assignments, dataset names, graph functions) that the block's detectors
   read keep their values (:mod:`tflsp.analysis.reads`).

Unchanged blocks also keep their final, shifted Diagnostic objects, so front ends can cache
what they derive from them.  An edit inside one function therefore re-parses and re-checks
that function only, unless it changes something module-wide that is not tracked (an import,
a class's bases, a new function) or a tracked entry other blocks read.
"""

from __future__ import annotations

import ast
import gc
import logging
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from tflsp.analysis.blocks import Chunk, Split, lexical_extent, normalise_newlines, resplit
from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic, syntax_error_diagnostic
from tflsp.analysis.facts import EMPTY_FACTS, BlockFacts, extract_facts
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.parsing import ParsedBlock, SyntaxProblem, parse_block, try_parse
from tflsp.analysis.reads import Dependencies
from tflsp.analysis.registry import ModuleFact, all_detectors, module_facts, watched_names
from tflsp.analysis.semantic.imports import ImportedNames
from tflsp.analysis.summary import ModuleSummary, build_summary
from tflsp.analysis.suppressions import Suppression, find_suppressions
from tflsp.catalog import Catalog, load_catalog

log = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")

_MAX_MERGE = 3  # how many following candidates a block that "ended early" may swallow


class Generations(Generic[K, V]):
    """A cache holding what the last two analyses used; anything older is dropped.

    A document is analysed after every keystroke.  A cache sized for a whole module would keep
    every typed version of the edited block (a 400-line function costs about a megabyte per
    version), so memory grew with the number of keystrokes.  Keeping what the current and the
    previous analysis used bounds it by twice the module, while unchanged blocks, and the block
    as it was before the last keystroke, stay cached.  A ``parent`` is read, never changed.
    """

    def __init__(
        self,
        parent: Generations[K, V] | None = None,
        dropped: Callable[[V], None] | None = None,
    ) -> None:
        self._current: dict[K, V] = {}
        self._previous: dict[K, V] = {}
        self._parent = parent
        self._dropped = dropped

    def get(self, key: K) -> V | None:
        value = self._current.get(key)
        if value is None:
            value = self._previous.pop(key, None)
            if value is not None:
                self._current[key] = value
            elif self._parent is not None:
                value = self._parent.peek(key)
        return value

    def peek(self, key: K) -> V | None:
        value = self._current.get(key)
        return self._previous.get(key) if value is None else value

    def put(self, key: K, value: V) -> None:
        self._current[key] = value

    def rotate(self) -> None:
        """End of an analysis: what it did not use is dropped at the end of the next one."""
        if self._dropped is not None:
            for value in self._previous.values():
                self._dropped(value)
        self._previous = self._current
        self._current = {}

    def __len__(self) -> int:
        return len(self._current) + len(self._previous)


@dataclass(frozen=True)
class LintConfig:
    """The resolved rule set for one file (see :mod:`tflsp.settings` for the user-facing side)."""

    enabled: frozenset[str]
    severity: tuple[tuple[str, str], ...] = ()
    target_keras: str = "auto"
    legacy_env: bool = False
    max_chars: int = 2_000_000

    @property
    def severity_map(self) -> dict[str, str]:
        return dict(self.severity)


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


@dataclass
class ModuleResult:
    diagnostics: list[Diagnostic]
    summary: ModuleSummary | None
    blocks: list[BlockView] = field(default_factory=list)
    skipped: str | None = None  # why the module was not analysed (size, binary)
    # Built on first use and kept: hovers and code actions ask the same result again and again.
    _suppressions: dict[int, Suppression] | None = field(default=None, init=False, repr=False)
    _starts: list[int] | None = field(default=None, init=False, repr=False)

    def suppressions(self) -> dict[int, Suppression]:
        """Module line -> suppression comment (the caller must not change the dict)."""
        if self._suppressions is None:
            out: dict[int, Suppression] = {}
            for block in self.blocks:
                for line, sup in block.analysis.suppressions.items():
                    out[block.start_line + line - 1] = sup
            self._suppressions = out
        return self._suppressions

    def block_at(self, line: int) -> BlockView | None:
        # Blocks are in module order and do not overlap: the last one starting at or before
        # the line is the only candidate.
        if self._starts is None:
            self._starts = [block.start_line for block in self.blocks]
        k = bisect_right(self._starts, line) - 1
        if k < 0:
            return None
        block = self.blocks[k]
        return block if line <= block.end_line else None


@dataclass(frozen=True)
class _Placed:
    """A block's diagnostics at one offset, and the findings and summary they came from."""

    analysis: BlockAnalysis
    summary: ModuleSummary
    findings: list[Diagnostic]
    deps: Dependencies | None
    diagnostics: list[Diagnostic]

    def valid_for(self, summary: ModuleSummary) -> bool:
        """Do the findings still hold under another summary (same core, same reads)?"""
        if self.summary is summary:
            return True
        tables = summary.tracked
        if tables is None or self.summary.tracked is None or self.deps is None:
            return False
        if self.summary.core_fingerprint != summary.core_fingerprint:
            return False
        if tables.delta is not None and tables.predecessor == id(self.summary.tracked):
            # Valid for the summary before this one: only what changed since can matter.
            return self.deps.atoms.isdisjoint(tables.delta)
        return tables.still_hold(self.deps)


class Analyzer:
    """Analyse module texts with one rule set.  Keep one per document to reuse its caches."""

    def __init__(
        self,
        config: LintConfig,
        catalog: Catalog | None = None,
        *,
        strict: bool = False,
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.config = config
        self.strict = strict  # re-raise detector crashes (tests); otherwise log and go on
        self._blocks: Generations[str, BlockAnalysis] = Generations(dropped=BlockAnalysis.release)
        self._unparsable: Generations[str, bool] = Generations()  # merges that failed
        # recovered text -> the block analysis whose recovery gave it (see _block)
        self._recoveries: Generations[str, BlockAnalysis] = Generations()
        self._findings: Generations[
            tuple[str, int, object], tuple[list[Diagnostic], Dependencies | None]
        ] = Generations()
        # (recovered text, neutralised lines, findings key minus the text) -> the findings
        # of a block that needed recovery, with what its detectors read of the neutralised
        # lines (see _detect).
        self._recovered: Generations[tuple[object, ...], _RecoveredFindings] = Generations()
        self._summary_key: tuple[tuple[BlockFacts, ...], tuple[tuple[str, int], ...]] | None = None
        self._summary: ModuleSummary | None = None
        self._previous: dict[int, tuple[str, BlockFacts]] = {}
        # The block texts and identities of the last summary (see _block_keys).
        self._key_texts: list[str] = []
        self._keys: list[tuple[str, int]] = []
        self._next_statement = 0
        self._split: Split | None = None  # the last text and its candidate blocks
        # (id of block analysis, line offset) -> the block's final diagnostics, so unchanged
        # blocks hand back the very same Diagnostic objects.
        self._placed: dict[tuple[int, int], _Placed] = {}
        self._watched = watched_names()
        self._detectors = all_detectors()
        self._module_facts = tuple(module_facts())
        self._severity = config.severity_map
        self.imported: ImportedNames | None = None

    def set_imported(self, imported: ImportedNames | None) -> None:
        """What this module imports from other workspace files (:mod:`tflsp.analysis.workspace`).

        Another answer (an imported file changed) invalidates every result kept for the module:
        a rare event, so everything is dropped rather than tracked.
        """
        before = self.imported
        if before is imported or (
            before is not None
            and imported is not None
            and before.fingerprint == imported.fingerprint
        ):
            self.imported = imported
            return
        self.imported = imported
        self._summary_key, self._summary = None, None
        self._findings = Generations()
        self._recovered = Generations()
        self._placed = {}

    def fork(self) -> Analyzer:
        """An analyzer with the same rules that reads this one's block and findings caches.

        Its module state (last summary, facts of unparsable blocks) and what it caches are its
        own, so analysing other texts with it (fix-all rounds) leaves this analyzer's next
        result and its memory unchanged.
        """
        twin = Analyzer(self.config, self.catalog, strict=self.strict)
        twin._blocks = Generations(self._blocks)
        twin._findings = Generations(self._findings)
        twin._unparsable = Generations(self._unparsable)
        twin._recoveries = Generations(self._recoveries)
        twin._recovered = Generations(self._recovered)
        twin.imported = self.imported
        return twin

    # -- blocks ----------------------------------------------------------------------------
    def _block(self, text: str) -> BlockAnalysis:
        cached = self._blocks.get(text)
        if cached is not None:
            return cached
        donors = self._recoveries
        donor: BlockAnalysis | None = None

        def known(recovered: str) -> ast.Module | None:
            nonlocal donor
            donor = donors.get(recovered)
            return donor.parsed.tree if donor is not None else None

        parsed = parse_block(text, known)
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
        self._blocks.put(text, analysis)
        return analysis

    def split(self, source: str) -> list[BlockView]:
        # Typing changes a few lines: the candidates around them are cut again, not the module.
        self._split = resplit(source, self._split)
        chunks = self._split.chunks
        views: list[BlockView] = []
        i = 0
        while i < len(chunks):
            chunk = chunks[i]
            analysis = self._block(chunk.text)
            taken = 1
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
                        analysis, taken = merged, extra + 1
                        break
            views.append(BlockView(chunk.start_line, analysis))
            i += taken
        return views

    # -- summary -----------------------------------------------------------------------------
    def _summarise(self, views: list[BlockView]) -> ModuleSummary:
        facts: list[BlockFacts] = []
        keys = self._block_keys(views)
        previous = self._previous
        current: dict[int, tuple[str, BlockFacts]] = {}
        for view in views:
            analysis = view.analysis
            head = analysis.head
            before = previous.get(view.start_line)
            if analysis.parsed.error is not None and before is not None and before[0] == head:
                # A block with a syntax error (a half-typed line) keeps what it said last time,
                # so typing does not change the rest of the module's results.  The block is
                # recognised by its position and its head (decorators up to the statement's
                # first line: two decorated functions share their first line); a block seen
                # broken for the first time contributes what recovery could parse.
                block_facts = before[1]
            else:
                block_facts = analysis.facts_after(
                    before[1] if before is not None and before[0] == head else None
                )
            current[view.start_line] = (head, block_facts)
            facts.append(block_facts)
        key = (tuple(facts), tuple(keys))
        if self._summary is not None and key == self._summary_key:
            # Equal facts, but new objects where a block was parsed again: keep the ones the
            # summary holds, so that the next comparisons (and the model's) are by identity.
            held = self._summary_key[0]
            if any(a is not b for a, b in zip(held, facts, strict=True)):
                for k, ((line, (head, _)), same) in enumerate(
                    zip(current.items(), held, strict=True)
                ):
                    current[line] = (head, same)
                    analysis = views[k].analysis
                    if analysis._facts is facts[k]:
                        analysis._facts = same
            self._previous = current
            return self._summary
        self._previous = current
        summary = build_summary(
            facts,
            keys=keys,
            target_keras=self.config.target_keras,
            legacy_env=self.config.legacy_env,
            watched=self._watched,
            previous=self._summary,
            module_facts=self._module_facts,
            imported=self.imported,
        )
        self._summary_key, self._summary = key, summary
        return summary

    def _block_keys(self, views: list[BlockView]) -> list[tuple[str, int]]:
        """Each block's identity while other blocks change (the semantic model's dependencies
        and the cached findings are kept by identity).

        A def or class is its head and which occurrence of that head it is.  Any other
        statement is known by its place, as its first line is what is being typed; but not by
        its rank among statements, or the first character of a new statement would renumber
        every statement below it and none could keep its findings.  Statements in the
        unchanged stretches before and after the edited one (same texts, same order) keep
        their numbers; edited ones keep those of the blocks they replace when the edit did not
        change the number of blocks, and get new numbers otherwise.  Blocks that keep their
        numbers keep their order relative to every other block, so what they read by identity
        means what it meant.
        """
        texts = [view.analysis.text for view in views]
        before, old_keys = self._key_texts, self._keys
        n, m = len(before), len(texts)
        shorter = min(n, m)
        prefix = 0
        while prefix < shorter and (
            before[prefix] is texts[prefix] or before[prefix] == texts[prefix]
        ):
            prefix += 1
        suffix = 0
        while suffix < shorter - prefix and (
            before[n - 1 - suffix] is texts[m - 1 - suffix]
            or before[n - 1 - suffix] == texts[m - 1 - suffix]
        ):
            suffix += 1
        keys: list[tuple[str, int]] = []
        seen_heads: dict[str, int] = {}
        for k, view in enumerate(views):
            identity = view.analysis.identity
            if identity != STATEMENT:
                occurrence = seen_heads.get(identity, 0)
                seen_heads[identity] = occurrence + 1
                keys.append((identity, occurrence))
                continue
            old: tuple[str, int] | None = None
            if k < prefix or (n == m and k < m - suffix):
                old = old_keys[k]
            elif k >= m - suffix:
                old = old_keys[k - m + n]
            if old is None or old[0] != STATEMENT:
                old = (STATEMENT, self._next_statement)
                self._next_statement += 1
            keys.append(old)
        self._key_texts, self._keys = texts, keys
        return keys

    # -- detection ---------------------------------------------------------------------------
    def _active_codes(self, summary: ModuleSummary) -> frozenset[str]:
        version = summary.keras_version
        return frozenset(
            code
            for code in self.config.enabled
            if code in self.catalog and self.catalog[code].applies_to(version)
        )

    def _detect(
        self,
        analysis: BlockAnalysis,
        summary: ModuleSummary,
        active: frozenset[str],
        ordinal: int,
    ) -> tuple[list[Diagnostic], Dependencies | None]:
        tables = summary.tracked
        model = summary.model
        key = _findings_key(analysis, summary, ordinal)
        cached = self._findings.get(key)
        if cached is not None:
            held = cached[1]
            if held is None or tables is None or tables.still_hold(held):
                return cached
        parsed = analysis.parsed
        recovered_key = (
            (parsed.recovered, parsed.neutralised, *key[1:])
            if parsed.recovered is not None
            else None
        )
        if recovered_key is not None:
            # A half-typed line: another text with the same recovery (the same line still
            # being typed) gave these findings, and what the detectors read of the
            # neutralised lines is the same in this text.
            found = self._recovered.get(recovered_key)
            if found is not None and _same_reads(analysis.text, found[2], found[3]):
                held = found[1]
                if held is None or tables is None or tables.still_hold(held):
                    self._findings.put(key, (found[0], held))
                    return found[0], held
        findings: list[Diagnostic] = []
        deps = None
        if analysis.parsed.tree is not None and analysis.index is not None:
            ctx = BlockContext(
                analysis.text,
                analysis.parsed.tree,
                analysis.index,
                summary,
                active,
                analysis.parsed.neutralised,
                ordinal,
            )
            recorded = model.evaluator.recording() if model is not None else None
            if tables is not None:
                tables.log.start()
            try:
                for det in self._detectors:
                    if det.codes.isdisjoint(active):
                        continue
                    try:
                        det.run(ctx)
                    except (RecursionError, MemoryError):
                        log.warning("detector %s gave up on a deeply nested block", det.name)
                    except Exception:
                        if self.strict:
                            raise
                        log.exception(
                            "detector %s crashed; its findings for this block are lost", det.name
                        )
            finally:
                if tables is not None:
                    tables.log.stop()
                if model is not None:
                    model.evaluator.stop()
                # Detector memos point back at the context, and the context at the block's
                # tree: cleared, the tree of a typed version is freed as soon as it leaves the
                # cache, not at the next full collection (which a busy server runs rarely).
                ctx.memo.clear()
            findings = _dedupe(ctx.findings)
            blocks: tuple[tuple[object, object], ...] = ()
            names: list[str] = []
            if model is not None and recorded is not None:
                numbers = sorted(j for j in recorded if isinstance(j, int))
                blocks = tuple((model.keys[j], model.blocks[j]) for j in numbers)
                names = [n for n in recorded if isinstance(n, str)]
            deps = tables.snapshot(blocks, names) if tables is not None else None
            if recovered_key is not None and not ctx.read_whole_text:
                self._recovered.put(
                    recovered_key,
                    (
                        findings,
                        deps,
                        tuple(ctx.neutralised_reads.items()),
                        tuple(ctx.contains_reads.items()),
                    ),
                )
        self._findings.put(key, (findings, deps))
        return findings, deps

    def _place(
        self,
        analysis: BlockAnalysis,
        summary: ModuleSummary,
        active: frozenset[str],
        offset: int,
        ordinal: int,
    ) -> _Placed:
        """One block's diagnostics in module lines: syntax error, then unsuppressed findings."""
        out: list[Diagnostic] = []
        error = analysis.parsed.error
        if error is not None and SYNTAX_ERROR_CODE in self.config.enabled:
            out.append(
                syntax_error_diagnostic(
                    error.line + offset,
                    error.column,
                    error.message,
                    error.end_line + offset,
                    error.end_column,
                )
            )
        sups = analysis.suppressions
        severity = self._severity
        findings, deps = self._detect(analysis, summary, active, ordinal)
        for finding in findings:
            sup = sups.get(finding.line) or sups.get(finding.end_line)
            if sup is not None and sup.covers(finding.code):
                continue
            level = severity.get(finding.code) or self.catalog[finding.code].severity
            out.append(_with_severity(finding, level).shifted(offset))
        return _Placed(analysis, summary, findings, deps, out)

    def module_summary(self, source: str) -> ModuleSummary:
        """The module's summary (its semantic model included) without running detectors."""
        return self._summarise(self.split(normalise_newlines(source)))

    def analyze(self, source: str) -> ModuleResult:
        if len(source) > self.config.max_chars:
            return ModuleResult(
                [],
                None,
                skipped=f"file has {len(source):,} characters; the limit is {self.config.max_chars:,}",
            )
        if "\x00" in source:
            return ModuleResult([], None, skipped="file contains NUL bytes (binary?)")
        # An analysis allocates many small objects that live on (trees, terms, the model's
        # memos) and makes next to no reference cycles: the cyclic collector, run again and
        # again over the growing heap meanwhile, would double a cold analysis.  It runs once,
        # after.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._analyze(source)
        finally:
            if collecting:
                gc.enable()

    def _analyze(self, source: str) -> ModuleResult:
        # Lines end at "\r\n", "\r" or "\n" as in Python; positions are the same after this.
        source = normalise_newlines(source)
        views = self.split(source)
        summary = self._summarise(views)
        active = self._active_codes(summary)
        diagnostics: list[Diagnostic] = []
        previous = self._placed
        placed: dict[tuple[int, int], _Placed] = {}
        for ordinal, view in enumerate(views):
            analysis = view.analysis
            offset = view.start_line - 1
            key = (id(analysis), offset)
            entry = previous.get(key)
            if entry is None or entry.analysis is not analysis or not entry.valid_for(summary):
                entry = self._place(analysis, summary, active, offset, ordinal)
            else:
                if entry.summary is not summary:
                    # New summary, same findings: the detectors' reads still hold.
                    entry = _Placed(
                        entry.analysis, summary, entry.findings, entry.deps, entry.diagnostics
                    )
                # Keep the findings cached as used by this analysis: once lines above the block
                # move (an Enter), the block is placed afresh and must find them there.
                self._findings.put(
                    _findings_key(analysis, summary, ordinal), (entry.findings, entry.deps)
                )
            placed[key] = entry
            diagnostics.extend(entry.diagnostics)
        self._placed = placed
        self._blocks.rotate()
        self._unparsable.rotate()
        self._recoveries.rotate()
        self._findings.rotate()
        self._recovered.rotate()
        diagnostics.sort(key=lambda d: d.sort_key)
        return ModuleResult(diagnostics, summary, views)


# Statements that cannot appear inside an open bracket: a candidate that stopped inside a
# bracket is not continued by a chunk starting with one of them (typically the next function
# after a half-typed line).  Strings can hold anything, so this applies to brackets only.
_STATEMENT_RE = re.compile(
    r"(?:async[ \t]+def|def|class|import|return|raise|pass|try|while|with|del|global|nonlocal|assert)\b"
)


def _findings_key(
    analysis: BlockAnalysis, summary: ModuleSummary, ordinal: int
) -> tuple[str, int, object]:
    """Findings depend on the block's text and the summary's core, plus the tracked-table
    entries the detectors read for this block (checked separately, see tflsp.analysis.reads).
    Identical texts at two places may see different values: the block's identity in the
    semantic model is part of the key."""
    tables = summary.tracked
    fingerprint = summary.core_fingerprint if tables is not None else summary.fingerprint
    model = summary.model
    identity = model.keys[ordinal] if model is not None and ordinal < len(model.keys) else None
    return (analysis.text, fingerprint, identity)


# Findings of a block analysed through its recovered text, with what the detectors read of
# the neutralised lines: (line, text) pairs and (substring, found) tests of the whole text.
_RecoveredFindings = tuple[
    list[Diagnostic],
    Dependencies | None,
    tuple[tuple[int, str], ...],
    tuple[tuple[str, bool], ...],
]


def _same_reads(
    text: str, lines: tuple[tuple[int, str], ...], contains: tuple[tuple[str, bool], ...]
) -> bool:
    """Would the detectors have read the same in ``text``?  Its other lines are the recovered
    text's, which is the same; only the neutralised lines they looked at can differ."""
    if lines:
        split = text.split("\n")
        for line, seen in lines:
            if (split[line - 1] if 0 < line <= len(split) else "") != seen:
                return False
    return all((part in text) == found for part, found in contains)


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


def _with_severity(diagnostic: Diagnostic, severity: str) -> Diagnostic:
    if diagnostic.severity == severity:
        return diagnostic
    return replace(diagnostic, severity=severity)


def _dedupe(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, int, int, int, int]] = set()
    out = []
    for f in findings:
        key = (f.code, f.line, f.column, f.end_line, f.end_column)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def parse_module(source: str) -> ast.Module | None:
    """Whole-module parse for callers that need one tree (fix verification, tests)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
