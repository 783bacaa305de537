"""Run the detectors over a module, block by block, reusing everything that did not change.

The last analysis is kept view by view (block, the facts it told the summary, its identity,
its diagnostics).  An edit changes a stretch of the text: the views before it are kept as they
are, those after it are kept moved by the lines the edit added, and only the stretch in
between is cut into blocks again, so a keystroke costs what it changed, not a pass over every
block of the module.  For that stretch, three caches make a one-line edit cheap:

1. block text -> parse tree, node index, facts, suppressions;
2. the facts of all blocks -> module summary (reused when no block's facts changed);
3. (block text, summary core fingerprint) -> findings, valid while the entries of the tracked
   summary tables (assignments, dataset names, graph functions) that the block's detectors
   read keep their values (:mod:`tflsp.analysis.reads`).

Kept views keep their final Diagnostic objects (moved ones get moved copies), so front ends
can cache what they derive from them.  An edit inside one function therefore re-parses and
re-checks that function only, unless it changes something module-wide that is not tracked (an
import, a class's bases, a new function) or a tracked entry other blocks read; then the kept
views' findings are checked against the new summary.
"""

from __future__ import annotations

import ast
import gc
import logging
from bisect import bisect_right
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace

from tflsp.analysis.blocks import normalise_newlines
from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic, syntax_error_diagnostic
from tflsp.analysis.facts import EMPTY_FACTS, BlockFacts
from tflsp.analysis.generations import Generations
from tflsp.analysis.reads import Dependencies
from tflsp.analysis.registry import Detector, all_detectors, module_facts, watched_names
from tflsp.analysis.semantic.imports import ImportedNames
from tflsp.analysis.summary import ModuleSummary, build_summary
from tflsp.analysis.suppressions import Suppression
from tflsp.analysis.views import STATEMENT, BlockAnalysis, BlockView, Cutter, Edit
from tflsp.catalog import Catalog, load_catalog

log = logging.getLogger(__name__)


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
    """A block's diagnostics at one offset, and the findings they came from: they hold under
    any summary with the same core fingerprint whose tables still give what the detectors
    read (``deps``)."""

    analysis: BlockAnalysis
    core: int  # the core fingerprint of the summary the findings were made under
    findings: list[Diagnostic]
    deps: Dependencies | None
    diagnostics: list[Diagnostic]


class _Check:
    """Do kept placements hold under a new summary?  Made once per summary change, asked for
    every kept view: when the summary says what changed since the one the placements hold for,
    a placement holds unless it read one of those things, a set test per view."""

    def __init__(self, summary: ModuleSummary, before: ModuleSummary | None) -> None:
        tables = summary.tracked
        self.tables = tables
        self.core = summary.core_fingerprint
        self.delta: frozenset[Hashable] | None = None
        if (
            tables is not None
            and before is not None
            and before.tracked is not None
            and tables.delta is not None
            and tables.predecessor == id(before.tracked)
        ):
            self.delta = tables.delta

    def holds(self, entry: _Placed) -> bool:
        deps = entry.deps
        if self.tables is None or deps is None or entry.core != self.core:
            return False
        if self.delta is not None:
            return deps.atoms.isdisjoint(self.delta)
        return self.tables.still_hold(deps)


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
        self._watched = watched_names()
        self._detectors = all_detectors()
        self._runs: dict[frozenset[str], list[Detector]] = {}
        self._runs_of = self._detectors
        self._module_facts = tuple(module_facts())
        self._severity = config.severity_map
        self._cutter = Cutter(self._module_facts)
        # What the last analysis kept per view of the cutter: the facts each view told the
        # summary (its last facts while broken), its identity in the semantic model, and its
        # diagnostics (None: not placed yet).  Incomplete when an analysis raised midway.
        self._facts: list[BlockFacts] = []
        self._keys: list[tuple[str, int]] = []
        self._placed: list[_Placed | None] = []
        self._complete = True
        # The summary every placement of the last analysis holds for (None: check them all).
        self._placed_for: ModuleSummary | None = None
        self._findings: Generations[
            tuple[str, int, object], tuple[list[Diagnostic], Dependencies | None]
        ] = Generations()
        # (recovered text, neutralised lines, findings key minus the text) -> the findings
        # of a block that needed recovery, with what its detectors read of the neutralised
        # lines (see _detect).
        self._recovered: Generations[tuple[object, ...], _RecoveredFindings] = Generations()
        self._summary_key: tuple[tuple[BlockFacts, ...], tuple[tuple[str, int], ...]] | None = None
        self._summary: ModuleSummary | None = None
        self._next_statement = 0
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
        self._placed = [None] * len(self._placed)
        self._placed_for = None

    def fork(self) -> Analyzer:
        """An analyzer with the same rules that reads this one's block and findings caches.

        Its module state (last summary, views, facts of unparsable blocks) and what it caches
        are its own, so analysing other texts with it (fix-all rounds) leaves this analyzer's
        next result and its memory unchanged.
        """
        twin = Analyzer(self.config, self.catalog, strict=self.strict)
        twin._cutter = self._cutter.fork()
        findings: Generations[
            tuple[str, int, object], tuple[list[Diagnostic], Dependencies | None]
        ] = Generations(self._findings)
        summary = self._placed_for
        if self._complete and summary is not None:
            # The findings the last analysis kept are in its placements.
            for ordinal, (view, entry) in enumerate(
                zip(self._cutter.views, self._placed, strict=True)
            ):
                if entry is not None:
                    key = _findings_key(view.analysis, summary, ordinal)
                    findings.put(key, (entry.findings, entry.deps))
        twin._findings = Generations(findings)
        twin._recovered = Generations(self._recovered)
        twin.imported = self.imported
        return twin

    # -- views -------------------------------------------------------------------------------
    def _advance(self, source: str) -> tuple[Edit, _Replaced]:
        """The cutter's views of ``source``, with what was kept per view moved along, and what
        was kept for the views the edit replaced."""
        complete = self._complete
        edit = self._cutter.advance(source, afresh=not complete)
        start, stop, kept = edit.start, edit.stop, edit.old_stop
        if not complete:
            # An analysis raised midway: what it left per view is not to be trusted, and the
            # cutter cut every view afresh.
            count = len(edit.views)
            self._facts = [EMPTY_FACTS] * count
            self._keys = [(STATEMENT, -1)] * count
            self._placed = [None] * count
            return edit, _Replaced({}, [])
        facts, keys = self._facts, self._keys
        replaced = _Replaced(
            {
                view.start_line: (view.analysis.head, facts[start + m])
                for m, view in enumerate(edit.replaced)
            },
            [
                (view.analysis.head, view.analysis.identity, keys[start + m])
                for m, view in enumerate(edit.replaced)
            ],
        )
        new = stop - start
        if new or kept != start:
            placed_after = self._placed[kept:]
            if edit.shift:
                placed_after = [
                    _moved(entry, edit.shift) if entry is not None and entry.diagnostics else entry
                    for entry in placed_after
                ]
            self._complete = False  # until the summary step filled the new views in
            self._facts = facts[:start] + [EMPTY_FACTS] * new + facts[kept:]
            self._keys = keys[:start] + [(STATEMENT, -1)] * new + keys[kept:]
            self._placed = self._placed[:start] + [None] * new + placed_after
        return edit, replaced

    # -- summary -----------------------------------------------------------------------------
    def _summarise(self, edit: Edit, replaced: _Replaced) -> ModuleSummary:
        views, facts = edit.views, self._facts
        for k in range(edit.start, edit.stop):
            view = views[k]
            analysis = view.analysis
            before = replaced.facts.get(view.start_line)
            if (
                analysis.parsed.error is not None
                and before is not None
                and before[0] == analysis.head
            ):
                # A block with a syntax error (a half-typed line) keeps what it said last time,
                # so typing does not change the rest of the module's results.  The block is
                # recognised by its position and its head (decorators up to the statement's
                # first line: two decorated functions share their first line); a block seen
                # broken for the first time contributes what recovery could parse.
                facts[k] = before[1]
            else:
                # The block's version before the edit gives what the edit left alone (the
                # methods of a class but the one typed in).
                facts[k] = analysis.facts_after(
                    before[1] if before is not None and before[0] == analysis.head else None
                )
        self._assign_keys(edit, replaced.keys)
        self._complete = True
        key = (tuple(facts), tuple(self._keys))
        if self._summary is not None and key == self._summary_key:
            # Equal facts, but new objects where a block was parsed again: keep the ones the
            # summary holds, so that the next comparisons (and the model's) are by identity.
            held = self._summary_key[0]
            for k in range(edit.start, edit.stop):
                same = held[k]
                if facts[k] is not same:
                    analysis = views[k].analysis
                    if analysis._facts is facts[k]:
                        analysis._facts = same
                    facts[k] = same
            return self._summary
        summary = build_summary(
            facts,
            keys=self._keys,
            target_keras=self.config.target_keras,
            legacy_env=self.config.legacy_env,
            watched=self._watched,
            previous=self._summary,
            module_facts=self._module_facts,
            imported=self.imported,
        )
        self._summary_key, self._summary = key, summary
        return summary

    def _assign_keys(self, edit: Edit, before: list[tuple[str, str, tuple[str, int]]]) -> None:
        """Each new view's identity while other blocks change (the semantic model's
        dependencies and the cached findings are kept by identity); ``before`` are the (head,
        identity, key) of the views the edit replaced.

        A def or class is its head and which occurrence of that head it is.  Any other
        statement is known by its place, as its first line is what is being typed; but not by
        its rank among statements, or the first character of a new statement would renumber
        every statement below it and none could keep its findings.  Statements in the
        unchanged stretches before and after the edited one (same heads, same order: the
        blank lines and comments a block ends with change when a statement is typed after it,
        and every block reading a name it binds would be checked again) keep their numbers;
        edited ones keep those of the blocks they replace when the edit did not
        change the number of blocks, and get new numbers otherwise.  Blocks that keep their
        numbers keep their order relative to every other block, so what they read by identity
        means what it meant.  Kept views keep their identities, unless the defs and classes
        the edit replaced are not the ones it made: then every def and class counts its
        occurrence again.
        """
        start, stop, keys = edit.start, edit.stop, self._keys
        heads = [edit.views[k].analysis.head for k in range(start, stop)]
        identities = [edit.views[k].analysis.identity for k in range(start, stop)]
        n, m = len(before), len(heads)
        shorter = min(n, m)
        prefix = 0
        while prefix < shorter and before[prefix][0] == heads[prefix]:
            prefix += 1
        suffix = 0
        while suffix < shorter - prefix and before[n - 1 - suffix][0] == heads[m - 1 - suffix]:
            suffix += 1
        for k in range(m):
            if identities[k] != STATEMENT:
                continue
            old: tuple[str, int] | None = None
            if k < prefix or (n == m and k < m - suffix):
                old = before[k][2]
            elif k >= m - suffix:
                old = before[k - m + n][2]
            if old is None or old[0] != STATEMENT:
                old = (STATEMENT, self._next_statement)
                self._next_statement += 1
            keys[start + k] = old
        defs_before = [key for _, identity, key in before if identity != STATEMENT]
        if [key[0] for key in defs_before] == [i for i in identities if i != STATEMENT]:
            found = iter(defs_before)
            for k in range(m):
                if identities[k] != STATEMENT:
                    keys[start + k] = next(found)
            return
        seen_heads: dict[str, int] = {}
        for k, view in enumerate(edit.views):
            identity = view.analysis.identity
            if identity != STATEMENT:
                occurrence = seen_heads.get(identity, 0)
                seen_heads[identity] = occurrence + 1
                keys[k] = (identity, occurrence)

    # -- detection ---------------------------------------------------------------------------
    def _active_codes(self, summary: ModuleSummary) -> frozenset[str]:
        version = summary.keras_version
        return frozenset(
            code
            for code in self.config.enabled
            if code in self.catalog and self.catalog[code].applies_to(version)
        )

    def _running(self, active: frozenset[str]) -> list[Detector]:
        """The detectors with an active code (asked for every block; the answer rarely
        changes)."""
        if self._runs_of is not self._detectors:  # benchmarks and tests swap detectors in
            self._runs.clear()
            self._runs_of = self._detectors
        found = self._runs.get(active)
        if found is None:
            found = self._runs[active] = [
                d for d in self._detectors if not d.codes.isdisjoint(active)
            ]
        return found

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
                for det in self._running(active):
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
        return _Placed(analysis, summary.core_fingerprint, findings, deps, out)

    def _cut(self, source: str) -> tuple[Edit, ModuleSummary]:
        """The views of ``source`` and the module summary."""
        edit, replaced = self._advance(normalise_newlines(source))
        return edit, self._summarise(edit, replaced)

    def module_summary(self, source: str) -> ModuleSummary:
        """The module's summary (its semantic model included) without running detectors."""
        self._placed_for = None  # the new views are not placed, nor any placement checked
        return self._cut(source)[1]

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
        # Until every view is placed nothing is known to hold (a detector that raised in a test
        # run leaves views unplaced).
        placed_for, self._placed_for = self._placed_for, None
        # Lines end at "\r\n", "\r" or "\n" as in Python; positions are the same after this.
        edit, summary = self._cut(source)
        active = self._active_codes(summary)
        views, placed = edit.views, self._placed
        start, stop = edit.start, edit.stop
        if summary is placed_for:
            # Every kept placement holds: place the new views only.
            for k in range(start, stop):
                view = views[k]
                placed[k] = self._place(view.analysis, summary, active, view.start_line - 1, k)
        else:
            check = _Check(summary, placed_for)
            for k, entry in enumerate(placed):
                if entry is None or start <= k < stop or not check.holds(entry):
                    view = views[k]
                    placed[k] = self._place(view.analysis, summary, active, view.start_line - 1, k)
        self._placed_for = summary
        diagnostics = [d for entry in placed if entry is not None for d in entry.diagnostics]
        self._cutter.rotate()
        self._findings.rotate()
        self._recovered.rotate()
        diagnostics.sort(key=lambda d: d.sort_key)
        return ModuleResult(diagnostics, summary, views)


@dataclass(frozen=True)
class _Replaced:
    """What the last analysis kept for the views an edit replaced: their start line -> (head,
    facts), for a block broken while it is typed (it keeps what it said last time at its
    line), and their (text, identity, key) in order, for the new views' identities."""

    facts: dict[int, tuple[str, BlockFacts]]
    keys: list[tuple[str, str, tuple[str, int]]]


def _moved(entry: _Placed, lines: int) -> _Placed:
    """A placement ``lines`` further down (its block is the same, its diagnostics move)."""
    return _Placed(
        entry.analysis,
        entry.core,
        entry.findings,
        entry.deps,
        [d.shifted(lines) for d in entry.diagnostics],
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
