"""Hover: the pattern behind a diagnostic or a suppression code, or the patterns about an API."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from tflsp.catalog import Catalog, Pattern
from tflsp.catalog.schema import SECTION_HEADINGS
from tflsp.cli.links import docs_url
from tflsp.server.names import (
    api_names,
    block_context,
    method_api_names,
    method_at,
    node_at,
)
from tflsp.server.positions import to_client_column
from tflsp.server.texts import text
from tflsp.server.workspace import Target


@dataclass
class HoverAnswer:
    markdown: str
    range: dict[str, Any] | None


def explanation_markdown(
    pattern: Pattern, lang: str, docs_base: str, catalog: Catalog, message: str | None = None
) -> str:
    """Title, (the diagnostic's message,) why, fix, version notes and a link, in Markdown."""
    explanation = pattern.explanation(lang)
    headings = SECTION_HEADINGS[explanation.lang]
    parts = [f"### {pattern.code} · {pattern.name}", f"**{pattern.title_in(lang)}**"]
    if message:
        parts.append(f"> {message}")
    for section in ("why", "fix", "versions"):
        body = explanation.sections.get(section, "").strip()
        if body:
            parts.append(f"#### {headings[section]}\n\n{body}")
    url = docs_url(docs_base, catalog, pattern.code, lang)
    if url:
        parts.append(f"[{text('read_more', lang)}]({url})")
    return "\n\n".join(parts)


def hover(
    target: Target, catalog: Catalog, uri: str, line: int, character: int, encoding: str
) -> HoverAnswer | None:
    docs_base = target.settings.docs_base_url if target.settings else ""
    lang = target.lang
    flagged = [r for r in target.rendered if r.covers(uri, line, character)]
    if flagged:
        seen: list[str] = []
        sections = []
        for item in flagged:
            pattern = catalog.patterns.get(item.code)
            if pattern is None or item.code in seen:
                continue
            seen.append(item.code)
            sections.append(
                explanation_markdown(pattern, lang, docs_base, catalog, item.lsp["message"])
            )
        if sections:
            return HoverAnswer("\n\n---\n\n".join(sections), flagged[0].lsp["range"])

    position = target.to_module(uri, line, character, encoding)
    result = target.result
    if position is None or result is None:
        return None
    module_line, column = position
    line_text = target.locate(module_line)
    suppression = result.suppressions().get(module_line)
    if suppression is not None and line_text is not None:
        for code, start, end in suppression.code_spans:
            pattern = catalog.patterns.get(code)
            if pattern is not None and start <= column <= end:
                return HoverAnswer(
                    explanation_markdown(pattern, lang, docs_base, catalog),
                    _range(line, line_text[2], start, end, encoding),
                )

    if result.summary is None:
        return None
    view = result.block_at(module_line)
    if view is None:
        return None
    ctx = block_context(view, result.summary)
    if ctx is None:
        return None
    block_line = module_line - view.start_line + 1
    node = node_at(ctx, block_line, column)
    if node is not None:
        names = api_names(ctx, node)
        _, start, _, end = ctx.node_range(node)
        if isinstance(node, ast.Attribute):
            start = end - len(node.attr)
    else:
        method = method_at(ctx, block_line, column)
        if method is None:
            return None
        names = method_api_names(ctx, method[0])
        start = ctx.line_text(block_line).find(
            method[1], ctx.char_col(block_line, method[0].col_offset)
        )
        end = start + len(method[1])
    if line_text is None:
        return None
    for name in names:
        if name.startswith("builtins."):
            # print() and friends are everywhere; their patterns show up as diagnostics.
            continue
        related = catalog.related_to_api(name)
        if related:
            return HoverAnswer(
                _related_markdown(name, related, lang, docs_base, catalog),
                _range(line, line_text[2], start, end, encoding),
            )
    return None


def _related_markdown(
    api: str, patterns: list[Pattern], lang: str, docs_base: str, catalog: Catalog
) -> str:
    lines = [f"**{text('related_patterns', lang, api=api)}**", ""]
    for pattern in patterns:
        url = docs_url(docs_base, catalog, pattern.code, lang)
        label = f"[{pattern.code}]({url})" if url else pattern.code
        lines.append(f"- {label} `{pattern.name}`: {pattern.title_in(lang)}")
    return "\n".join(lines)


def _range(line: int, line_text: str, start: int, end: int, encoding: str) -> dict[str, Any]:
    return {
        "start": {"line": line, "character": to_client_column(line_text, start, encoding)},
        "end": {"line": line, "character": to_client_column(line_text, end, encoding)},
    }
