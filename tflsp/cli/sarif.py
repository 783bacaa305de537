"""SARIF 2.1.0 output for code scanning (GitHub and other SARIF consumers).

Rule help comes from the catalog in the chosen language; the other language travels as a
standard SARIF translation (``run.translations``), whose rules line up with the driver's rules
index by index.  Notebook results point into the ``.ipynb`` JSON text, so a viewer highlights
the right line of the file; the cell-relative position is kept in the location's properties.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from tflsp import __version__
from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic
from tflsp.catalog import Catalog
from tflsp.cli.formats import CellLocation, FileReport, message_for
from tflsp.cli.links import docs_url, site_url

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
# SARIF wants RFC 5646 tags with a region (SARIF 2.1.0, section 3.19.18).
LANGUAGE_TAGS = {"en": "en-US", "ja": "ja-JP"}
_DOCS_LABEL = {"en": "Documentation", "ja": "ドキュメント"}
_SYNTAX_HELP = {
    "en": (
        "The file does not parse as Python.",
        "Python's parser rejected the file, so no other rule could look at it. "
        "Fix the syntax error first.",
    ),
    "ja": (
        "ファイルを Python として解析できません。",
        "Python のパーサーがこのファイルを受け付けなかったため、ほかのルールは検査できていません。"
        "まず構文エラーを直してください。",
    ),
}


def _information(component: dict[str, object], uri: str | None) -> dict[str, object]:
    """``informationUri`` only when there is a page to point at (an absolute URI)."""
    if uri is not None:
        component["informationUri"] = uri
    return component


def _other(lang: str) -> str:
    return "ja" if lang == "en" else "en"


def _localized_rule(catalog: Catalog, code: str, lang: str, base_url: str) -> dict[str, object]:
    """The localizable parts of one rule (texts and help) in ``lang``."""
    if code == SYNTAX_ERROR_CODE:
        short, help_text = _SYNTAX_HELP[lang]
        return {
            "id": code,
            "shortDescription": {"text": short},
            "help": {"text": help_text, "markdown": help_text},
        }
    pattern = catalog[code]
    explanation = pattern.explanation(lang)
    url = docs_url(base_url, catalog, code, lang)
    link = f"\n\n{_DOCS_LABEL[lang]}: {url}" if url else ""
    markdown_link = f"\n{_DOCS_LABEL[lang]}: <{url}>\n" if url else ""
    return {
        "id": code,
        "shortDescription": {"text": pattern.title_in(lang)},
        "fullDescription": {"text": explanation["what"]},
        "help": {
            "text": f"{explanation['why']}\n\n{explanation['fix']}{link}",
            "markdown": explanation.to_markdown(heading_level=3) + markdown_link,
        },
    }


def _rule(catalog: Catalog, code: str, lang: str, base_url: str) -> dict[str, object]:
    rule = _localized_rule(catalog, code, lang, base_url)
    if code == SYNTAX_ERROR_CODE:
        rule["name"] = "syntax-error"
        rule["defaultConfiguration"] = {"level": "error"}
        return rule
    pattern = catalog[code]
    rule["name"] = pattern.name
    rule["helpUri"] = docs_url(base_url, catalog, code, lang)
    rule["defaultConfiguration"] = {"level": _LEVELS[pattern.severity]}
    rule["properties"] = {
        "tags": [pattern.family, *pattern.keras],
        "precision": "high" if pattern.severity == "error" else "medium",
    }
    return rule


def _translation(
    catalog: Catalog, codes: Sequence[str], lang: str, base_url: str
) -> dict[str, object]:
    """The driver's rules in ``lang`` (SARIF 2.1.0, section 3.19.4 "Translations")."""
    return {
        "name": "tflsp",
        "language": LANGUAGE_TAGS[lang],
        "contents": ["localizedData"],
        "associatedComponent": {"name": "tflsp"},
        "translationMetadata": _information(
            {"name": f"tflsp ({LANGUAGE_TAGS[lang]})"}, site_url(base_url, lang)
        ),
        "rules": [_localized_rule(catalog, code, lang, base_url) for code in codes],
    }


def artifact_uri(path: str) -> str:
    """A URI reference for a reported path: relative paths stay relative (as GitHub wants)."""
    if path == "-":
        return "stdin"
    as_path = Path(path)
    if as_path.is_absolute():
        return as_path.as_uri()
    return quote(as_path.as_posix(), safe="/")


def _region(line: int, column: int, end_line: int, end_column: int) -> dict[str, int]:
    return {
        "startLine": line,
        "startColumn": column + 1,
        "endLine": end_line,
        "endColumn": end_column + 1,
    }


def _location(uri: str, d: Diagnostic, cell: CellLocation | None) -> dict[str, object]:
    if cell is None:
        region = _region(d.line, d.column, d.end_line, d.end_column)
        return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
    physical: dict[str, object] = {"artifactLocation": {"uri": uri}}
    if cell.file_region is not None:
        physical["region"] = _region(*cell.file_region)
    return {
        "physicalLocation": physical,
        "properties": {
            "cell": cell.cell,
            "cellRegion": _region(cell.line, cell.column, cell.end_line, cell.end_column),
        },
    }


def _fixes(catalog: Catalog, uri: str, d: Diagnostic, lang: str) -> list[dict[str, object]]:
    assert d.fix is not None
    pattern = catalog.get(d.code)
    return [
        {
            "description": {"text": pattern.fix_title(lang, d.fix.args) if pattern else ""},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": uri},
                    "replacements": [
                        {
                            "deletedRegion": _region(e.line, e.column, e.end_line, e.end_column),
                            "insertedContent": {"text": e.text},
                        }
                        for e in d.fix.edits
                    ],
                }
            ],
        }
    ]


def render_sarif(catalog: Catalog, reports: Sequence[FileReport], lang: str, base_url: str) -> str:
    used = sorted({d.code for r in reports for d in r.diagnostics})
    rules = [_rule(catalog, code, lang, base_url) for code in used]
    index = {code: i for i, code in enumerate(used)}
    results = []
    for report in reports:
        uri = artifact_uri(report.path)
        for d, cell in report.located():
            result: dict[str, object] = {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _LEVELS.get(d.severity, "warning"),
                "message": {"text": message_for(catalog, d, lang)},
                "locations": [_location(uri, d, cell)],
            }
            # A notebook fix edits a cell, not the JSON text a SARIF replacement would address.
            if d.fix is not None and cell is None:
                result["fixes"] = _fixes(catalog, uri, d, lang)
            results.append(result)
    invocation: dict[str, object] = {
        "executionSuccessful": not any(r.error for r in reports),
        "toolExecutionNotifications": [
            {"level": "error", "message": {"text": f"{r.path}: {r.error}"}}
            for r in reports
            if r.error
        ],
    }
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": _information(
                        {
                            "name": "tflsp",
                            "version": __version__,
                            "semanticVersion": __version__,
                            "language": LANGUAGE_TAGS[lang],
                            "rules": rules,
                        },
                        site_url(base_url, "en"),
                    )
                },
                "language": LANGUAGE_TAGS[lang],
                "translations": [_translation(catalog, used, _other(lang), base_url)],
                "columnKind": "unicodeCodePoints",
                "invocations": [invocation],
                "results": results,
            }
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
