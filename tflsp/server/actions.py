"""Code actions: quick fix, ignore on this line, open the docs, and fix all.

Edits come from the ``data`` of the diagnostics already rendered for the current text, so no
action re-runs the analyzer, except fix-all on a text document, which repeats the analysis until
no safe fix is left (a fix can uncover another) on a fork of the document's analyzer.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from tflsp.analysis.fixes import fix_source
from tflsp.catalog import Catalog
from tflsp.cli.links import docs_url
from tflsp.server.commands import FIX_ALL, OPEN_DOCS, QUICKFIX
from tflsp.server.documents import BOM
from tflsp.server.names import block_context
from tflsp.server.positions import to_client_column
from tflsp.server.render import Rendered
from tflsp.server.texts import text
from tflsp.server.workspace import Target

LspRange = dict[str, dict[str, int]]


def kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    """LSP kinds are hierarchical: asking for ``source`` includes ``source.fixAll.tflsp``."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


def _overlaps(rng: LspRange, other: LspRange) -> bool:
    def key(pos: dict[str, int]) -> tuple[int, int]:
        return pos["line"], pos["character"]

    return key(rng["start"]) <= key(other["end"]) and key(other["start"]) <= key(rng["end"])


class ActionBuilder:
    def __init__(
        self, target: Target, catalog: Catalog, encoding: str, document_changes: bool
    ) -> None:
        self.target = target
        self.catalog = catalog
        self.encoding = encoding
        self.document_changes = document_changes
        self.lang = target.lang

    # -- edits -------------------------------------------------------------------------------
    def workspace_edit(self, edits_by_uri: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        if self.document_changes:
            return {
                "documentChanges": [
                    {
                        "textDocument": {"uri": uri, "version": self.target.version_of(uri)},
                        "edits": edits,
                    }
                    for uri, edits in edits_by_uri.items()
                ]
            }
        return {"changes": edits_by_uri}

    # -- per-diagnostic actions ----------------------------------------------------------------
    def for_range(
        self, uri: str, rng: LspRange, only: Sequence[str] | None
    ) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = []
        if kind_wanted(QUICKFIX, only):
            flagged = [r for r in self.target.rendered_for(uri) if _overlaps(r.lsp["range"], rng)]
            fixes, extras = [], []
            seen: set[tuple[str, int]] = set()
            for item in flagged:
                fix = item.lsp.get("data", {}).get("fix")
                if fix is not None:
                    fixes.append(self._quick_fix(item, fix))
                key = (item.code, item.lsp["range"]["start"]["line"])
                if key in seen or item.code not in self.catalog:
                    continue
                seen.add(key)
                ignore = self._ignore(item)
                if ignore is not None:
                    extras.append(ignore)
                extras.append(self._open_docs(item))
            actions.extend(fixes)
            actions.extend(extras)
        if kind_wanted(FIX_ALL, only) and self.fix_all_offered():
            actions.append(
                {
                    "title": text("fix_all", self.lang),
                    "kind": FIX_ALL,
                    "data": {"tflsp": "fixAll", "uri": uri},
                }
            )
        return actions

    def _quick_fix(self, item: Rendered, fix: dict[str, Any]) -> dict[str, Any]:
        title = fix["title"] + ("" if fix["safe"] else text("unsafe_suffix", self.lang))
        return {
            "title": title,
            "kind": QUICKFIX,
            "diagnostics": [item.lsp],
            "isPreferred": bool(fix["safe"]),
            "edit": self.workspace_edit({item.uri: fix["edits"]}),
        }

    def _open_docs(self, item: Rendered) -> dict[str, Any]:
        title = text("open_docs", self.lang, code=item.code)
        base = self.target.settings.docs_base_url if self.target.settings else ""
        url = docs_url(base, self.catalog, item.code, self.lang)
        return {
            "title": title,
            "kind": QUICKFIX,
            "diagnostics": [item.lsp],
            "command": {"title": title, "command": OPEN_DOCS, "arguments": [url]},
        }

    def _ignore(self, item: Rendered) -> dict[str, Any] | None:
        edit = self.ignore_edit(item.origin.code, [item.origin.line, item.origin.end_line])
        if edit is None:
            return None
        uri, text_edit = edit
        return {
            "title": text("ignore_line", self.lang, code=item.code),
            "kind": QUICKFIX,
            "diagnostics": [item.lsp],
            "edit": self.workspace_edit({uri: [text_edit]}),
        }

    def ignore_edit(self, code: str, candidates: list[int]) -> tuple[str, dict[str, Any]] | None:
        """Add ``code`` to the line's ``# tflsp: ignore[...]`` comment, or add the comment.

        The engine honours a comment on the first or the last line of a finding; a line whose
        end is inside a string or after a ``\\`` continuation cannot take a comment.
        """
        result = self.target.result
        if result is None:
            return None
        suppressions = result.suppressions()
        encoding = self.encoding
        for module_line in dict.fromkeys(candidates):
            where = self.target.locate(module_line)
            if where is None:
                continue
            uri, line, line_text = where
            existing = suppressions.get(module_line)
            if existing is not None and existing.code_spans:
                column = existing.code_spans[-1][2]
                insert = f", {code}"
            elif existing is not None and line_text[existing.column : existing.end_column].endswith(
                "[]"
            ):
                column = existing.end_column - 1
                insert = code
            elif existing is not None:
                continue  # a bare "# tflsp: ignore" already covers every code
            else:
                stripped = line_text.rstrip()  # lines come without their line break
                if stripped.endswith("\\") or self._ends_in_string(module_line):
                    continue
                start = to_client_column(line_text, len(stripped), encoding)
                end = to_client_column(line_text, len(line_text), encoding)
                return uri, {
                    "range": {
                        "start": {"line": line, "character": start},
                        "end": {"line": line, "character": end},
                    },
                    "newText": f"  # tflsp: ignore[{code}]",
                }
            character = to_client_column(line_text, column, encoding)
            position = {"line": line, "character": character}
            return uri, {"range": {"start": position, "end": position}, "newText": insert}
        return None

    def _ends_in_string(self, module_line: int) -> bool:
        result = self.target.result
        if result is None or result.summary is None:
            return False
        view = result.block_at(module_line)
        if view is None:
            return False
        ctx = block_context(view, result.summary)
        if ctx is None:
            return False
        line = module_line - view.start_line + 1
        for kind in (ast.Constant, ast.JoinedStr):
            for node in ctx.index.nodes(kind):
                start, _, end, _ = ctx.node_range(node)
                if start <= line < end:
                    return True
        return False

    # -- fix all -----------------------------------------------------------------------------
    def fix_all_offered(self) -> bool:
        settings = self.target.settings
        if settings is not None and not settings.fix_all:
            return False
        return any(r.lsp.get("data", {}).get("fix", {}).get("safe") for r in self.target.rendered)

    def fix_all_edit(self) -> dict[str, Any] | None:
        target = self.target
        if target.text is not None:
            return self._fix_text()
        # Notebook: one round of non-overlapping safe fixes, cell by cell.
        by_uri: dict[str, list[dict[str, Any]]] = {}
        taken: dict[str, list[LspRange]] = {}
        for item in target.rendered:
            fix = item.lsp.get("data", {}).get("fix")
            if not fix or not fix["safe"]:
                continue
            ranges = [e["range"] for e in fix["edits"]]
            used = taken.setdefault(item.uri, [])
            if any(_overlaps(a, b) for a in ranges for b in used):
                continue
            used.extend(ranges)
            by_uri.setdefault(item.uri, []).extend(fix["edits"])
        return self.workspace_edit(by_uri) if by_uri else None

    def _fix_text(self) -> dict[str, Any] | None:
        target = self.target
        assert target.text is not None
        if target.analyzer is None or target.result is None or target.result.skipped:
            return None
        buffer = target.text.buffer
        source = target.source  # the buffer's text as analysed: "\n" breaks, no BOM
        outcome = fix_source(target.analyzer.fork(), source)
        if outcome.source == source:
            return None
        old, new = source.split("\n"), outcome.source.split("\n")
        prefix = 0
        limit = min(len(old), len(new)) - 1
        while prefix < limit and old[prefix] == new[prefix]:
            prefix += 1
        suffix = 0
        while (
            suffix < min(len(old), len(new)) - prefix - 1
            and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]
        ):
            suffix += 1
        last = len(old) - 1 - suffix
        # Columns count in the client's line (its BOM included); the range ends before the
        # line break, which stays.
        client_line = buffer.line(last)
        end_char = to_client_column(client_line, len(client_line), self.encoding)
        new_text = buffer.newline.join(new[prefix : len(new) - suffix])
        if prefix == 0 and buffer.has_bom:
            new_text = new_text.replace("\f", BOM, 1)  # the BOM was analysed as a form feed
        edit = {
            "range": {
                "start": {"line": prefix, "character": 0},
                "end": {"line": last, "character": end_char},
            },
            "newText": new_text,
        }
        return self.workspace_edit({target.key: [edit]})
