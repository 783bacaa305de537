"""SARIF 2.1.0 output for code scanning (GitHub and other SARIF consumers)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from tflsp import __version__
from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE
from tflsp.catalog import Catalog
from tflsp.cli.formats import FileReport, docs_url, message_for

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def _rule(catalog: Catalog, code: str, lang: str, base_url: str) -> dict[str, object]:
    if code == SYNTAX_ERROR_CODE:
        return {
            "id": code,
            "name": "syntax-error",
            "shortDescription": {"text": "The file does not parse as Python."},
            "defaultConfiguration": {"level": "error"},
        }
    pattern = catalog[code]
    explanation = pattern.explanation(lang)
    other = "ja" if lang == "en" else "en"
    rule: dict[str, object] = {
        "id": code,
        "name": pattern.name,
        "shortDescription": {"text": pattern.title_in(lang)},
        "fullDescription": {"text": explanation["what"]},
        "help": {
            "text": f"{explanation['why']}\n\n{explanation['fix']}",
            "markdown": explanation.to_markdown(heading_level=3),
        },
        "helpUri": docs_url(base_url, catalog, code, lang),
        "defaultConfiguration": {"level": _LEVELS[pattern.severity]},
        "properties": {
            "tags": [pattern.family, *pattern.keras],
            "precision": "high" if pattern.severity == "error" else "medium",
            # The other language's text, so one SARIF file serves both audiences.
            f"title.{other}": pattern.title_in(other),
            f"helpUri.{other}": docs_url(base_url, catalog, code, other),
        },
    }
    return rule


def render_sarif(catalog: Catalog, reports: Sequence[FileReport], lang: str, base_url: str) -> str:
    used = sorted({d.code for r in reports for d in r.diagnostics})
    rules = [_rule(catalog, code, lang, base_url) for code in used]
    index = {code: i for i, code in enumerate(used)}
    results = []
    for report in reports:
        uri = Path(report.path).as_posix() if report.path != "-" else "stdin"
        for d in report.diagnostics:
            result: dict[str, object] = {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _LEVELS.get(d.severity, "warning"),
                "message": {"text": message_for(catalog, d, lang)},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri},
                            "region": {
                                "startLine": d.line,
                                "startColumn": d.column + 1,
                                "endLine": d.end_line,
                                "endColumn": d.end_column + 1,
                            },
                        }
                    }
                ],
            }
            if d.fix is not None:
                pattern = catalog.get(d.code)
                result["fixes"] = [
                    {
                        "description": {
                            "text": pattern.fix_title(lang, d.fix.args) if pattern else ""
                        },
                        "artifactChanges": [
                            {
                                "artifactLocation": {"uri": uri},
                                "replacements": [
                                    {
                                        "deletedRegion": {
                                            "startLine": e.line,
                                            "startColumn": e.column + 1,
                                            "endLine": e.end_line,
                                            "endColumn": e.end_column + 1,
                                        },
                                        "insertedContent": {"text": e.text},
                                    }
                                    for e in d.fix.edits
                                ],
                            }
                        ],
                    }
                ]
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
                    "driver": {
                        "name": "tflsp",
                        "version": __version__,
                        "informationUri": base_url,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [invocation],
                "results": results,
            }
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
