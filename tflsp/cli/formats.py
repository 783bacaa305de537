"""Text and JSON renderings of check results (SARIF lives in :mod:`tflsp.cli.sarif`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic, Edit
from tflsp.catalog import Catalog
from tflsp.cli.links import docs_url

SYNTAX_ERROR_NAME = "syntax-error"


@dataclass(frozen=True)
class CellEdit:
    """One fix edit in notebook terms: ``edit`` positions are relative to cell ``cell``."""

    cell: int
    edit: Edit


@dataclass(frozen=True)
class CellLocation:
    """Where a notebook diagnostic sits, for the renderers.

    ``cell`` is the 1-based cell number (markdown and raw cells count); lines are 1-based and
    columns 0-based, relative to the cell.  ``file_region`` is the same range in the ``.ipynb``
    JSON text (start line, start column, end line, end column), which is what SARIF needs.
    """

    cell: int
    line: int
    column: int
    end_line: int
    end_column: int
    file_region: tuple[int, int, int, int] | None = None
    edits: tuple[CellEdit, ...] = ()


@dataclass
class FileReport:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None  # the file could not be checked
    notice: str | None = None  # the file was skipped on purpose (size)
    fixed: int = 0
    diff: str = ""
    # Notebooks only: one entry per diagnostic, in the same order.
    locations: list[CellLocation] | None = None

    def located(self) -> list[tuple[Diagnostic, CellLocation | None]]:
        if self.locations is None:
            return [(d, None) for d in self.diagnostics]
        return list(zip(self.diagnostics, self.locations, strict=True))


def rule_name(catalog: Catalog, code: str) -> str:
    if code == SYNTAX_ERROR_CODE:
        return SYNTAX_ERROR_NAME
    pattern = catalog.get(code)
    return pattern.name if pattern else code


def message_for(catalog: Catalog, diagnostic: Diagnostic, lang: str) -> str:
    return diagnostic.message(catalog.patterns.get(diagnostic.code), lang)


def _edit_record(edit: Edit, cell: int | None) -> dict[str, object]:
    record: dict[str, object] = {}
    if cell is not None:
        record["cell"] = cell
    record.update(
        {
            "line": edit.line,
            "column": edit.column + 1,
            "end_line": edit.end_line,
            "end_column": edit.end_column + 1,
            "content": edit.text,
        }
    )
    return record


def diagnostic_record(
    catalog: Catalog,
    path: str,
    d: Diagnostic,
    lang: str,
    base_url: str | None = None,
    location: CellLocation | None = None,
    url_for: Callable[[str], str | None] | None = None,
) -> dict[str, object]:
    """The stable JSON shape of one diagnostic (1-based line and column).

    ``cell`` is ``null`` for Python files; for notebooks it is the 1-based cell number and the
    positions (fix edits included) are relative to that cell.
    """
    if location is None:
        cell, line, column, end_line, end_column = None, d.line, d.column, d.end_line, d.end_column
    else:
        cell, line, column = location.cell, location.line, location.column
        end_line, end_column = location.end_line, location.end_column
    record: dict[str, object] = {
        "path": path,
        "cell": cell,
        "line": line,
        "column": column + 1,
        "end_line": end_line,
        "end_column": end_column + 1,
        "code": d.code,
        "name": rule_name(catalog, d.code),
        "severity": d.severity,
        "message": message_for(catalog, d, lang),
    }
    fix = None
    if d.fix is not None:
        pattern = catalog.get(d.code)
        edits = (
            [_edit_record(e, None) for e in d.fix.edits]
            if location is None
            else [_edit_record(e.edit, e.cell) for e in location.edits]
        )
        fix = {
            "applicability": "safe" if d.fix.safe else "unsafe",
            "message": pattern.fix_title(lang, d.fix.args) if pattern else "",
            "edits": edits,
        }
    record["fix"] = fix
    if url_for is not None:
        record["url"] = url_for(d.code)
    else:
        record["url"] = docs_url(base_url or "", catalog, d.code, lang)
    return record


def render_text(catalog: Catalog, reports: Sequence[FileReport], lang: str) -> str:
    lines = []
    for report in reports:
        for d, location in report.located():
            fixable = " [*]" if d.fix is not None and d.fix.safe else ""
            where = (
                f"{d.line}:{d.column + 1}"
                if location is None
                else f"cell {location.cell}:{location.line}:{location.column + 1}"
            )
            lines.append(
                f"{report.path}:{where}: {d.code}{fixable} "
                f"[{rule_name(catalog, d.code)}] {message_for(catalog, d, lang)}"
            )
    return "\n".join(lines) + ("\n" if lines else "")


def summary_line(reports: Sequence[FileReport], lang: str, fix_mode: bool) -> str:
    found = sum(len(r.diagnostics) for r in reports)
    fixable = sum(1 for r in reports for d in r.diagnostics if d.fix is not None and d.fix.safe)
    fixed = sum(r.fixed for r in reports)
    files = len(reports)
    if lang == "ja":
        parts = [f"{files} ファイルを検査し、{found} 件の問題が見つかりました。"]
        if fixed:
            parts.append(f"{fixed} 件を修正しました。")
        elif fixable and not fix_mode:
            parts.append(f"{fixable} 件は --fix で修正できます。")
        return " ".join(parts)
    noun = "problem" if found == 1 else "problems"
    text = f"Checked {files} file{'s' if files != 1 else ''}, found {found} {noun}."
    if fixed:
        text += f" Fixed {fixed}."
    elif fixable and not fix_mode:
        text += f" {fixable} fixable with --fix."
    return text


def render_json(
    catalog: Catalog, reports: Sequence[FileReport], lang: str, base_url: str | None = None
) -> str:
    # One link per code, not per finding: finding a local page stats and resolves files.
    urls: dict[str, str | None] = {}

    def url_for(code: str) -> str | None:
        if code not in urls:
            urls[code] = docs_url(base_url or "", catalog, code, lang)
        return urls[code]

    records = [
        diagnostic_record(catalog, r.path, d, lang, base_url, location, url_for)
        for r in reports
        for d, location in r.located()
    ]
    return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
