"""Text and JSON renderings of check results (SARIF lives in :mod:`tflsp.cli.sarif`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic
from tflsp.catalog import Catalog

SYNTAX_ERROR_NAME = "syntax-error"


@dataclass
class FileReport:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None  # the file could not be checked
    notice: str | None = None  # the file was skipped on purpose (size)
    fixed: int = 0
    diff: str = ""


def rule_name(catalog: Catalog, code: str) -> str:
    if code == SYNTAX_ERROR_CODE:
        return SYNTAX_ERROR_NAME
    pattern = catalog.get(code)
    return pattern.name if pattern else code


def message_for(catalog: Catalog, diagnostic: Diagnostic, lang: str) -> str:
    return diagnostic.message(catalog.patterns.get(diagnostic.code), lang)


def docs_url(base: str, catalog: Catalog, code: str, lang: str = "en") -> str | None:
    pattern = catalog.get(code)
    if pattern is None:
        return None
    prefix = f"{lang}/" if lang == "ja" else ""
    return f"{base}{prefix}patterns/{pattern.slug}.html"


def diagnostic_record(
    catalog: Catalog, path: str, d: Diagnostic, lang: str, base_url: str | None = None
) -> dict[str, object]:
    """The stable JSON shape of one diagnostic (1-based line and column)."""
    record: dict[str, object] = {
        "path": path,
        "line": d.line,
        "column": d.column + 1,
        "end_line": d.end_line,
        "end_column": d.end_column + 1,
        "code": d.code,
        "name": rule_name(catalog, d.code),
        "severity": d.severity,
        "message": message_for(catalog, d, lang),
    }
    fix = None
    if d.fix is not None:
        pattern = catalog.get(d.code)
        fix = {
            "applicability": "safe" if d.fix.safe else "unsafe",
            "message": pattern.fix_title(lang, d.fix.args) if pattern else "",
            "edits": [
                {
                    "line": e.line,
                    "column": e.column + 1,
                    "end_line": e.end_line,
                    "end_column": e.end_column + 1,
                    "content": e.text,
                }
                for e in d.fix.edits
            ],
        }
    record["fix"] = fix
    record["url"] = docs_url(base_url, catalog, d.code, lang) if base_url else None
    return record


def render_text(catalog: Catalog, reports: Sequence[FileReport], lang: str) -> str:
    lines = []
    for report in reports:
        for d in report.diagnostics:
            fixable = " [*]" if d.fix is not None and d.fix.safe else ""
            lines.append(
                f"{report.path}:{d.line}:{d.column + 1}: {d.code}{fixable} "
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
    records = [
        diagnostic_record(catalog, r.path, d, lang, base_url)
        for r in reports
        for d in r.diagnostics
    ]
    return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
