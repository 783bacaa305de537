"""Analyzer diagnostics -> LSP diagnostic objects (plain dicts), rendered once and reused.

A diagnostic the engine hands back unchanged (same object: its block and the block's position
did not change) keeps its rendered dict and its JSON text, so publishing after a keystroke
costs a join of cached strings for everything outside the edited block.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tflsp.server.positions import to_client_column

if TYPE_CHECKING:
    from tflsp.analysis.diagnostics import Diagnostic, Edit
    from tflsp.catalog import Catalog

SEVERITY_NUMBERS = {"error": 1, "warning": 2, "info": 3, "hint": 4}
SOURCE = "tflsp"

# module line (1-based) -> (document uri, 0-based LSP line, the line's text)
Locator = Callable[[int], "tuple[str, int, str] | None"]


@dataclass
class Rendered:
    """One diagnostic as the client sees it, and where it came from."""

    uri: str
    lsp: dict[str, Any]
    origin: Diagnostic
    _json: str | None = field(default=None, repr=False)

    @property
    def json(self) -> str:
        if self._json is None:
            self._json = json.dumps(self.lsp, separators=(",", ":"))
        return self._json

    @property
    def code(self) -> str:
        return self.origin.code

    def covers(self, uri: str, line: int, character: int) -> bool:
        """Is the LSP position inside this diagnostic's range (end inclusive)?"""
        if uri != self.uri:
            return False
        start, end = self.lsp["range"]["start"], self.lsp["range"]["end"]
        return (
            (start["line"], start["character"])
            <= (line, character)
            <= (
                end["line"],
                end["character"],
            )
        )


class DiagnosticRenderer:
    def __init__(self, catalog: Catalog, lang: str, docs_base: str, encoding: str) -> None:
        from tflsp.cli.links import docs_url

        self._docs_url = docs_url
        self.catalog = catalog
        self.lang = lang
        self.docs_base = docs_base
        self.encoding = encoding
        self._cache: dict[int, tuple[Diagnostic, Rendered]] = {}
        # Links by code while one list is rendered (finding a local page stats files).
        self._urls: dict[str, str | None] = {}
        self.newline = "\n"  # the documents' line break, written into fix edits

    def matches(self, lang: str, docs_base: str, encoding: str) -> bool:
        return (lang, docs_base, encoding) == (self.lang, self.docs_base, self.encoding)

    def forget(self) -> None:
        self._cache.clear()

    def render_all(
        self, diagnostics: Sequence[Diagnostic], locate: Locator, newline: str = "\n"
    ) -> list[Rendered]:
        if newline != self.newline:
            self.newline = newline
            self._cache.clear()
        cache = self._cache
        self._urls = {}
        fresh: dict[int, tuple[Diagnostic, Rendered]] = {}
        out: list[Rendered] = []
        for diagnostic in diagnostics:
            hit = cache.get(id(diagnostic))
            if hit is not None and hit[0] is diagnostic:
                rendered: Rendered | None = hit[1]
            else:
                rendered = self.render(diagnostic, locate)
            if rendered is None:
                continue
            fresh[id(diagnostic)] = (diagnostic, rendered)
            out.append(rendered)
        # Only what was used this time is kept: the cache never outgrows the document.
        self._cache = fresh
        return out

    def render(self, d: Diagnostic, locate: Locator) -> Rendered | None:
        start = locate(d.line)
        if start is None:
            return None
        uri, line, text = start
        end = locate(d.end_line) if d.end_line != d.line else start
        if end is None or end[0] != uri:
            end_line, end_char = line, len(text)
        else:
            end_line, end_char = end[1], to_client_column(end[2], d.end_column, self.encoding)
        pattern = self.catalog.patterns.get(d.code)
        lsp: dict[str, Any] = {
            "range": {
                "start": {
                    "line": line,
                    "character": to_client_column(text, d.column, self.encoding),
                },
                "end": {"line": end_line, "character": end_char},
            },
            "severity": SEVERITY_NUMBERS.get(d.severity, 2),
            "code": d.code,
            "source": SOURCE,
            "message": d.message(pattern, self.lang),
        }
        if d.code in self._urls:
            url = self._urls[d.code]
        else:
            url = self._urls[d.code] = self._docs_url(
                self.docs_base, self.catalog, d.code, self.lang
            )
        if url:
            lsp["codeDescription"] = {"href": url}
        data: dict[str, Any] = {}
        if d.fix is not None and pattern is not None:
            edits = self._edits(d.fix.edits, uri, locate)
            if edits is not None:
                data["fix"] = {
                    "title": pattern.fix_title(self.lang, d.fix.args),
                    "safe": d.fix.safe,
                    "edits": edits,
                }
        if data:
            lsp["data"] = data
        return Rendered(uri, lsp, d)

    def _edits(
        self, edits: Sequence[Edit], uri: str, locate: Locator
    ) -> list[dict[str, Any]] | None:
        out = []
        for edit in edits:
            start = locate(edit.line)
            end = locate(edit.end_line) if edit.end_line != edit.line else start
            if start is None or end is None or start[0] != uri or end[0] != uri:
                return None  # an edit outside this document (another cell): no quick fix
            if any(locate(line) is None for line in range(edit.line + 1, edit.end_line)):
                return None  # it would rewrite a notebook's IPython line in between
            out.append(
                {
                    "range": {
                        "start": {
                            "line": start[1],
                            "character": to_client_column(start[2], edit.column, self.encoding),
                        },
                        "end": {
                            "line": end[1],
                            "character": to_client_column(end[2], edit.end_column, self.encoding),
                        },
                    },
                    # Fixes write "\n"; a CRLF document gets "\r\n" (its first line break).
                    "newText": edit.text.replace("\n", self.newline)
                    if self.newline != "\n"
                    else edit.text,
                }
            )
        return out


class Publishable(Protocol):
    """Anything published with the analyzer's diagnostics (verifier results too)."""

    @property
    def json(self) -> str: ...


def publish_body(uri: str, version: int | None, rendered: Sequence[Publishable]) -> str:
    """The full ``textDocument/publishDiagnostics`` message, built from cached JSON parts."""
    head = json.dumps(uri)
    version_part = f',"version":{version}' if version is not None else ""
    items = ",".join(r.json for r in rendered)
    return (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        f'{head}{version_part},"diagnostics":[{items}]}}}}'
    )
