"""Apply fixes to source text (the CLI's ``--fix``, fix-all, and the catalog test)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tflsp.analysis.blocks import first_line_break, line_starts
from tflsp.analysis.diagnostics import Diagnostic, Edit
from tflsp.analysis.engine import Analyzer

MAX_ROUNDS = 10


def _line_offsets(source: str) -> list[int]:
    # Any line break ends a line, as for the analyzer (which reads "\r\n" and "\r" as "\n").
    return line_starts(source)


def _offset(offsets: list[int], source: str, line: int, column: int) -> int:
    if line - 1 >= len(offsets):
        return len(source)
    return min(offsets[line - 1] + column, len(source))


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    r"""Apply non-overlapping edits (later ones in conflict are dropped).

    Fixes write ``\n``; in a file whose first line break is another, they write that one.
    """
    offsets = _line_offsets(source)
    newline = first_line_break(source) if "\r" in source else "\n"
    spans = []
    for edit in edits:
        start = _offset(offsets, source, edit.line, edit.column)
        end = _offset(offsets, source, edit.end_line, edit.end_column)
        text = edit.text.replace("\n", newline) if newline != "\n" else edit.text
        spans.append((start, end, text))
    spans.sort(key=lambda s: (s[0], s[1]))
    kept: list[tuple[int, int, str]] = []
    last_end = -1
    for start, end, text in spans:
        if start < last_end:
            continue
        kept.append((start, end, text))
        last_end = max(end, start + (1 if start == end else 0))
    out = source
    for start, end, text in reversed(kept):
        out = out[:start] + text + out[end:]
    return out


def fixable(diagnostics: Iterable[Diagnostic], *, unsafe: bool = False) -> list[Diagnostic]:
    return [d for d in diagnostics if d.fix is not None and (d.fix.safe or unsafe)]


def apply_fixes_once(
    source: str, diagnostics: Sequence[Diagnostic], *, unsafe: bool = False
) -> tuple[str, int]:
    """Apply every fix whose edits do not overlap an earlier one; return (text, fixes applied)."""
    offsets = _line_offsets(source)
    taken: list[tuple[int, int]] = []
    edits: list[Edit] = []
    count = 0
    for diag in fixable(diagnostics, unsafe=unsafe):
        assert diag.fix is not None
        ranges = [
            (
                _offset(offsets, source, e.line, e.column),
                _offset(offsets, source, e.end_line, e.end_column),
            )
            for e in diag.fix.edits
        ]
        if any((s < te and ts < e) or s == ts for s, e in ranges for ts, te in taken):
            continue
        taken.extend(ranges)
        edits.extend(diag.fix.edits)
        count += 1
    if not count:
        return source, 0
    return apply_edits(source, edits), count


@dataclass
class FixOutcome:
    source: str
    applied: int
    rounds: int
    converged: bool


def fix_source(analyzer: Analyzer, source: str, *, unsafe: bool = False) -> FixOutcome:
    """Fix until nothing fixable is left (fixes may unlock others), refusing syntax breakage."""
    total = 0
    for round_number in range(1, MAX_ROUNDS + 1):
        result = analyzer.analyze(source)
        new_source, applied = apply_fixes_once(source, result.diagnostics, unsafe=unsafe)
        if not applied:
            return FixOutcome(source, total, round_number - 1, True)
        if _breaks_syntax(source, new_source):
            return FixOutcome(source, total, round_number, False)
        source = new_source
        total += applied
    return FixOutcome(source, total, MAX_ROUNDS, False)


def _breaks_syntax(before: str, after: str) -> bool:
    def parses(text: str) -> bool:
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return False
        return True

    return parses(before) and not parses(after)
