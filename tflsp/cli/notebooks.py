"""``tflsp check`` on Jupyter notebooks: analyse the code cells as one module, fix cell by cell.

Fixes are applied to the cells' own text (IPython lines intact) and written back through
:meth:`tflsp.ipynb.Notebook.with_sources`, so only the changed ``source`` values of the file
change.  A fix that would touch an IPython line or cross a cell boundary is dropped: it cannot
be expressed in the notebook, and reporting it as fixable would be a lie.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Mapping
from dataclasses import replace

from tflsp.analysis.diagnostics import Diagnostic, Edit, Fix
from tflsp.analysis.engine import Analyzer
from tflsp.analysis.fixes import MAX_ROUNDS, apply_edits, fixable
from tflsp.cli.formats import CellEdit, CellLocation, FileReport
from tflsp.ipynb import Notebook, NotebookError, parse_notebook
from tflsp.notebook import NotebookModule, build_module, text_index

NOTEBOOK_SUFFIX = ".ipynb"


def is_notebook(path: str) -> bool:
    return path.lower().endswith(NOTEBOOK_SUFFIX)


def cell_edits(module: NotebookModule, fix: Fix) -> tuple[CellEdit, ...] | None:
    """The fix's edits relative to their cells, or ``None`` when a notebook cannot take them."""
    out: list[CellEdit] = []
    for edit in fix.edits:
        start = module.locate(edit.line, edit.column)
        if start is None or module.is_masked(start):
            return None
        end = module.locate_end(start, edit.end_line, edit.end_column)
        if end is None or module.is_masked(end):
            return None
        out.append(
            CellEdit(start.cell, Edit(start.line, start.column, end.line, end.column, edit.text))
        )
    return tuple(out)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def fix_cells(
    analyzer: Analyzer, cells: Mapping[int, str], *, unsafe: bool
) -> tuple[dict[int, str], int]:
    """Fix until nothing fixable is left; return the changed cells and the fixes applied."""
    current = dict(cells)
    total = 0
    for _ in range(MAX_ROUNDS):
        module = build_module(current.items())
        result = analyzer.analyze(module.text)
        taken: list[tuple[int, int, int]] = []
        chosen: dict[int, list[Edit]] = {}
        applied = 0
        for diagnostic in fixable(result.diagnostics, unsafe=unsafe):
            assert diagnostic.fix is not None
            edits = cell_edits(module, diagnostic.fix)
            if not edits:
                continue
            ranges = [
                (
                    e.cell,
                    text_index(current[e.cell], e.edit.line, e.edit.column),
                    text_index(current[e.cell], e.edit.end_line, e.edit.end_column),
                )
                for e in edits
            ]
            # The same overlap rule as tflsp.analysis.fixes.apply_fixes_once, per cell.
            if any(
                c == tc and ((s < te and ts < e) or s == ts)
                for c, s, e in ranges
                for tc, ts, te in taken
            ):
                continue
            taken.extend(ranges)
            for e in edits:
                chosen.setdefault(e.cell, []).append(e.edit)
            applied += 1
        if not applied:
            break
        candidate = {**current}
        for number, edits_in_cell in chosen.items():
            candidate[number] = apply_edits(current[number], edits_in_cell)
        if _parses(module.text) and not _parses(build_module(candidate.items()).text):
            break  # a fix that breaks the syntax is a bug somewhere; keep what we have
        current = candidate
        total += applied
    return {n: s for n, s in current.items() if s != cells[n]}, total


def _locate(
    notebook: Notebook, module: NotebookModule, d: Diagnostic
) -> tuple[Diagnostic, CellLocation] | None:
    start = module.locate(d.line, d.column)
    if start is None:
        return None
    end = module.locate_end(start, d.end_line, d.end_column) or start
    edits: tuple[CellEdit, ...] = ()
    if d.fix is not None:
        mapped = cell_edits(module, d.fix)
        if mapped:
            edits = mapped
        else:
            d = replace(d, fix=None)
    file_start = notebook.file_position(start.cell, start.line, start.column)
    file_end = notebook.file_position(end.cell, end.line, end.column)
    region = (*file_start, *file_end) if file_start and file_end else None
    location = CellLocation(
        start.cell, start.line, start.column, end.line, end.column, region, edits
    )
    return d, location


def _cell_diff(path: str, before: Mapping[int, str], after: Mapping[int, str]) -> str:
    parts = []
    for number in sorted(after):
        parts.append(
            "".join(
                difflib.unified_diff(
                    before[number].splitlines(keepends=True),
                    after[number].splitlines(keepends=True),
                    fromfile=f"a/{path}:cell {number}",
                    tofile=f"b/{path}:cell {number}",
                )
            )
        )
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts if p)


def check_notebook(
    analyzer: Analyzer, path: str, text: str, *, fix: bool, unsafe: bool, diff: bool
) -> tuple[FileReport, str]:
    """Check (and with ``fix``/``diff`` fix) one notebook's text; return the report and text."""
    report = FileReport(path)
    try:
        notebook = parse_notebook(text)
    except NotebookError as exc:
        report.error = str(exc)
        return report, text
    if not notebook.is_python:
        report.notice = f"not a Python notebook (kernel language: {notebook.language})"
        return report, text
    new_text = text
    if fix or diff:
        before = dict(notebook.code_cells())
        changed, report.fixed = fix_cells(analyzer, before, unsafe=unsafe)
        if changed:
            new_text = notebook.with_sources(changed)
            notebook = parse_notebook(new_text)
            if diff:
                report.diff = _cell_diff(path, before, changed)
    module = notebook.module()
    result = analyzer.analyze(module.text)
    if result.skipped:
        report.notice = result.skipped
    report.locations = []
    for d in result.diagnostics:
        located = _locate(notebook, module, d)
        if located is not None:
            report.diagnostics.append(located[0])
            report.locations.append(located[1])
    return report, new_text
