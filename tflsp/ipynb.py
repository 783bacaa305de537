"""The ``.ipynb`` file format: read code cells, locate them in the JSON text, rewrite sources.

A fix must leave a notebook exactly as Jupyter wrote it apart from the cells it changes:
outputs, metadata, key order, indentation, escapes and the final newline.  Re-serialising
the parsed JSON cannot promise that (number formats, ``\\u`` escapes, separators), so the file
is scanned once for the text span of every cell's ``source`` value and a rewrite replaces only
those spans.

The spans also give SARIF its physical locations: a (cell, line, column) position maps to the
line and column of the same character inside the JSON file, escapes accounted for.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tflsp.notebook import NotebookModule, build_module, text_index

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A whole JSON string, unrolled so that long strings (base64 outputs) cost one regex step each.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
PYTHON_LANGUAGES = frozenset({"python", "python3", "ipython", "ipython3"})


class NotebookError(Exception):
    """The file is not a notebook tflsp can read; the message says why in one line."""


@dataclass(frozen=True)
class StringToken:
    """One JSON string in the file: its decoded value and where each character came from."""

    value: str
    start: int  # file offset of the opening quote
    offsets: tuple[int, ...]  # file offset of the first raw character of each decoded one
    end: int  # file offset of the closing quote


@dataclass(frozen=True)
class SourceSpan:
    """The ``source`` value of one cell: ``[start, end)`` in the file, and its strings."""

    start: int
    end: int
    is_list: bool
    strings: tuple[StringToken, ...]


# -- a JSON scanner that remembers positions ---------------------------------------------------


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, pos: int) -> int:
        match = _WHITESPACE.match(self.text, pos)
        assert match is not None
        return match.end()

    def expect(self, pos: int, char: str) -> int:
        pos = self.skip(pos)
        if self.text[pos : pos + 1] != char:
            raise NotebookError(f"not valid JSON: expected {char!r} at offset {pos}")
        return pos + 1

    def string(self, pos: int) -> StringToken:
        text = self.text
        if text[pos : pos + 1] != '"':
            raise NotebookError(f"not valid JSON: expected a string at offset {pos}")
        chars: list[str] = []
        offsets: list[int] = []
        i = pos + 1
        while True:
            if i >= len(text):
                raise NotebookError("not valid JSON: unterminated string")
            ch = text[i]
            if ch == '"':
                return StringToken("".join(chars), pos, tuple(offsets), i)
            offsets.append(i)
            if ch != "\\":
                chars.append(ch)
                i += 1
                continue
            kind = text[i + 1 : i + 2]
            if kind != "u":
                if kind not in _SIMPLE_ESCAPES:
                    raise NotebookError(f"not valid JSON: bad escape at offset {i}")
                chars.append(_SIMPLE_ESCAPES[kind])
                i += 2
                continue
            code = int(text[i + 2 : i + 6], 16)
            i += 6
            if 0xD800 <= code < 0xDC00 and text[i : i + 2] == "\\u":
                low = int(text[i + 2 : i + 6], 16)
                if 0xDC00 <= low < 0xE000:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
            chars.append(chr(code))

    def value_end(self, pos: int) -> int:
        """Offset just past the value starting at ``pos`` (whitespace skipped first)."""
        pos = self.skip(pos)
        ch = self.text[pos : pos + 1]
        if ch == '"':
            match = _STRING.match(self.text, pos)
            if match is None:
                raise NotebookError("not valid JSON: unterminated string")
            return match.end()
        if ch == "{":
            end = pos + 1
            for member in self.members(pos):
                end = member[2]
            return self.expect(end, "}")
        if ch == "[":
            end = pos + 1
            for item in self.items(pos):
                end = item[1]
            return self.expect(end, "]")
        match = _SCALAR.match(self.text, pos)
        if match is None:
            raise NotebookError(f"not valid JSON: unexpected {ch!r} at offset {pos}")
        return match.end()

    def members(self, pos: int) -> Iterator[tuple[str, int, int]]:
        """``(key, value start, value end)`` of the object at ``pos``."""
        pos = self.expect(pos, "{")
        if self.text[self.skip(pos) : self.skip(pos) + 1] == "}":
            return
        while True:
            key_at = self.skip(pos)
            key = self.string(key_at)
            start = self.skip(self.expect(key.end + 1, ":"))
            end = self.value_end(start)
            yield key.value, start, end
            after = self.skip(end)
            if self.text[after : after + 1] != ",":
                return
            pos = after + 1

    def items(self, pos: int) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each element of the array at ``pos``."""
        pos = self.expect(pos, "[")
        if self.text[self.skip(pos) : self.skip(pos) + 1] == "]":
            return
        while True:
            start = self.skip(pos)
            end = self.value_end(start)
            yield start, end
            after = self.skip(end)
            if self.text[after : after + 1] != ",":
                return
            pos = after + 1


def _source_spans(text: str, start: int) -> list[SourceSpan | None]:
    """The ``source`` span of every cell, in order (``None`` for a cell without one)."""
    scanner = _Scanner(text)
    spans: list[SourceSpan | None] = []
    for key, value_start, _ in scanner.members(start):
        if key != "cells":
            continue
        for cell_start, _cell_end in scanner.items(value_start):
            found: SourceSpan | None = None
            for cell_key, s_start, s_end in scanner.members(cell_start):
                if cell_key != "source":
                    continue
                if text[s_start] == "[":
                    strings = tuple(scanner.string(a) for a, _ in scanner.items(s_start))
                    found = SourceSpan(s_start, s_end, True, strings)
                else:
                    found = SourceSpan(s_start, s_end, False, (scanner.string(s_start),))
            spans.append(found)
    return spans


# -- the notebook file -------------------------------------------------------------------------


def _cell_text(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _language(data: Mapping[str, Any]) -> str | None:
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        table = metadata.get(key)
        if isinstance(table, dict) and isinstance(table.get(field), str):
            return str(table[field]).lower()
    return None


def _is_python_cell(cell: Mapping[str, Any]) -> bool:
    if cell.get("cell_type") != "code":
        return False
    # VS Code records a per-cell language for notebooks that mix languages.
    metadata = cell.get("metadata")
    vscode = metadata.get("vscode") if isinstance(metadata, dict) else None
    language = vscode.get("languageId") if isinstance(vscode, dict) else None
    return language is None or str(language).lower() in PYTHON_LANGUAGES


@dataclass(frozen=True)
class Notebook:
    """A parsed notebook file, kept with its exact text."""

    text: str  # the file's text without a byte-order mark
    bom: bool
    cells: tuple[Mapping[str, Any], ...]
    spans: tuple[SourceSpan | None, ...]
    language: str | None

    @property
    def is_python(self) -> bool:
        return self.language is None or self.language in PYTHON_LANGUAGES

    def code_cells(self) -> list[tuple[int, str]]:
        """``(cell number, source)`` of the Python code cells; numbers count every cell."""
        return [
            (number, _cell_text(cell))
            for number, cell in enumerate(self.cells, start=1)
            if _is_python_cell(cell)
        ]

    def module(self) -> NotebookModule:
        return build_module(self.code_cells())

    def file_offset(self, number: int, line: int, column: int) -> int | None:
        """File offset of the character at (1-based cell, 1-based line, 0-based column).

        Positions past the last character of the cell map to the source's closing quote.
        """
        span = self.spans[number - 1] if 0 < number <= len(self.spans) else None
        if span is None or not span.strings:
            return None
        target = text_index(_cell_text(self.cells[number - 1]), line, column)
        seen = 0
        for token in span.strings:
            if target < seen + len(token.value):
                return token.offsets[target - seen]
            seen += len(token.value)
        return span.strings[-1].end

    def file_position(self, number: int, line: int, column: int) -> tuple[int, int] | None:
        """(1-based line, 0-based column) in the file of a cell position (see file_offset)."""
        offset = self.file_offset(number, line, column)
        if offset is None:
            return None
        starts = self._line_starts
        index = bisect.bisect_right(starts, offset) - 1
        return index + 1, offset - starts[index]

    @cached_property
    def _line_starts(self) -> list[int]:
        return [0, *(m.end() for m in re.finditer("\n", self.text))]

    def with_sources(self, sources: Mapping[int, str]) -> str:
        """The file text with the given cells' sources replaced, everything else untouched.

        The byte-order mark, if the file had one, is the writer's business (:attr:`bom`).
        """
        ascii_only = self.text.isascii() and "\\u" in self.text
        pieces: list[str] = []
        last = 0
        for number in sorted(sources):
            span = self.spans[number - 1]
            if span is None:
                raise NotebookError(f"cell {number} has no source to rewrite")
            pieces.append(self.text[last : span.start])
            pieces.append(self._render_source(span, sources[number], ascii_only))
            last = span.end
        pieces.append(self.text[last:])
        return "".join(pieces)

    def _render_source(self, span: SourceSpan, text: str, ascii_only: bool) -> str:
        def dump(value: str) -> str:
            return json.dumps(value, ensure_ascii=ascii_only)

        if not span.is_list:
            return dump(text)
        lines = [line + "\n" for line in text.split("\n")]
        lines[-1] = lines[-1][:-1]
        if not lines[-1]:
            lines.pop()
        if not lines:
            return "[]"
        opening, separator, closing = self._list_layout(span)
        return "[" + opening + separator.join(dump(line) for line in lines) + closing + "]"

    def _list_layout(self, span: SourceSpan) -> tuple[str, str, str]:
        """Whitespace after ``[``, between items (with the comma) and before ``]``."""
        text = self.text
        strings = span.strings
        if strings:
            opening = text[span.start + 1 : strings[0].start]
            closing = text[strings[-1].end + 1 : span.end - 1]
            if len(strings) > 1:
                separator = text[strings[0].end + 1 : strings[1].start]
            else:
                separator = "," + opening
            return opening, separator, closing
        # An empty list: indent one level below the "source" key, as Jupyter does.
        line_start = text.rfind("\n", 0, span.start) + 1
        indent = re.match(r"[ \t]*", text[line_start:]).group(0)  # type: ignore[union-attr]
        unit = _indent_unit(text) or " "
        return "\n" + indent + unit, ",\n" + indent + unit, "\n" + indent


def _indent_unit(text: str) -> str:
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else ""


def parse_notebook(text: str) -> Notebook:
    """Parse notebook text (nbformat 4); :class:`NotebookError` when it is not one."""
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        if isinstance(data, dict) and "worksheets" in data:
            raise NotebookError(
                "nbformat 3 notebook; convert it with `jupyter nbconvert --to notebook`"
            )
        raise NotebookError("not a Jupyter notebook (no list of cells)")
    cells = tuple(cell if isinstance(cell, dict) else {} for cell in data["cells"])
    start = _Scanner(text).skip(0)
    spans = tuple(_source_spans(text, start))
    if len(spans) != len(cells):
        raise NotebookError("could not locate the cells in the file")
    for cell, span in zip(cells, spans, strict=True):
        if span is not None and "".join(t.value for t in span.strings) != _cell_text(cell):
            raise NotebookError("could not locate the cell sources in the file")
    return Notebook(text, bom, cells, spans, _language(data))
