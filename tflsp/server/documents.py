"""The server's own copy of open documents.

Text is kept as a list of lines so that an incremental change costs the lines it touches, not
the whole document (pygls' built-in store re-splits the full text on every keystroke).  A
notebook is a list of cells whose Python code is analysed as one module; :class:`LineMap`
takes module lines back to (cell, line).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from tflsp.notebook import MaskedCell, mask_ipython
from tflsp.server.positions import UTF16, from_client_column


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if re.match(r"^/[A-Za-z]:", path):  # file:///C:/x on Windows
        path = path[1:]
    return Path(path)


# Line breaks as LSP and Python count them.  The capturing group keeps them in re.split.
_BREAK_RE = re.compile(r"(\r\n|\r|\n)")
BOM = "\ufeff"


def split_lines(text: str) -> tuple[list[str], list[str] | None]:
    r"""Lines without their breaks, and the break ending each line (``""`` for the last one).

    ``\r\n``, ``\r`` and ``\n`` all end a line, as in LSP and in Python.  The breaks are
    ``None`` when every one is ``\n`` (almost always): nothing to remember then.
    """
    if "\r" not in text:
        return text.split("\n"), None
    parts = _BREAK_RE.split(text)
    return parts[0::2], [*parts[1::2], ""]


class TextBuffer:
    r"""Lines of a document, without their line breaks; the joined text is built on demand.

    Lines are split the LSP way, so client positions map to ``lines[line][column]`` whatever
    the line breaks are, and a column past the end of a line stops before its break.  The
    breaks themselves are kept apart (:attr:`breaks`), so that an edit that makes a ``\r`` and
    a ``\n`` meet becomes one ``\r\n`` line break as it does in the editor.
    """

    __slots__ = ("_length", "_text", "breaks", "lines")

    def __init__(self, text: str) -> None:
        self.lines: list[str] = []
        # The break after each line, or None when every line but the last ends with "\n".
        self.breaks: list[str] | None = None
        self._text: str | None = None
        self._length = 0
        self.replace_all(text)

    @property
    def text(self) -> str:
        r"""The document as Python reads it: every line break a ``\n``, and a leading byte
        order mark turned into a form feed.

        The CLI drops a leading BOM (U+FEFF) as Python does when it reads a file; ``compile``
        of a string that starts with one is a syntax error.  The server cannot drop it: the
        client counts it in its columns.  Python ignores a form feed at the start of a line,
        and with one code point in its place every column of the first line stays the
        client's (in every position encoding, since the conversion reads the client's line).
        """
        if self._text is None:
            self._text = "\n".join(self.lines)
            if self._text.startswith(BOM):
                self._text = "\f" + self._text[1:]
        return self._text

    @property
    def has_bom(self) -> bool:
        return bool(self.lines) and self.lines[0].startswith(BOM)

    def document(self) -> str:
        """The text exactly as the client has it (its line breaks, its BOM)."""
        if self.breaks is None:
            return "\n".join(self.lines)
        return "".join(line + brk for line, brk in zip(self.lines, self.breaks, strict=True))

    @property
    def newline(self) -> str:
        r"""The line break to write into this document: its first one, else ``\n``."""
        return self.breaks[0] if self.breaks and self.breaks[0] else "\n"

    def __len__(self) -> int:
        """Length in code points, kept up to date without joining the lines."""
        return self._length

    def line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def line_break(self, index: int) -> str:
        if self.breaks is not None:
            return self.breaks[index]
        return "\n" if index < len(self.lines) - 1 else ""

    def replace_all(self, text: str) -> None:
        self.lines, self.breaks = split_lines(text)
        self._text = None
        self._length = len(text)

    def apply(
        self,
        start: tuple[int, int],
        end: tuple[int, int],
        text: str,
        encoding: str = UTF16,
    ) -> None:
        """Replace the range between two client positions (line, column in client units)."""
        lines = self.lines
        (sl, sc), (el, ec) = self._clamp(start, encoding), self._clamp(end, encoding)
        if (el, ec) < (sl, sc):
            (sl, sc), (el, ec) = (el, ec), (sl, sc)
        head = lines[sl][:sc]
        tail = lines[el][ec:]
        removed = sum(len(lines[i]) + len(self.line_break(i)) for i in range(sl, el + 1))
        region = head + text + tail
        self._text = None
        breaks = self.breaks
        if "\n" not in text and "\r" not in text and not self._joins_breaks(sl, el, region):
            # Typing within a line (most edits): the line keeps the break of the range's end.
            lines[sl : el + 1] = [region]
            if breaks is not None:
                breaks[sl : el + 1] = [breaks[el]]
            self._length += len(region) + len(self.line_break(sl)) - removed
            return
        last_break = self.line_break(el)
        region += last_break
        if self._joins_breaks(sl, el, region):
            # The "\r" ending the line above and the "\n" starting the region become one
            # "\r\n", as in the editor's text.
            sl -= 1
            removed += len(lines[sl]) + 1
            region = lines[sl] + "\r" + region
        new_lines, new_breaks = split_lines(region)
        if last_break:
            # The region ends with the break of its last line: the empty piece after it is the
            # start of the next line, which is not part of the change.
            new_lines.pop()
            if new_breaks is not None:
                new_breaks.pop()
        if breaks is None and new_breaks is not None:
            breaks = self.breaks = [self.line_break(i) for i in range(len(lines))]
        if breaks is not None:
            if new_breaks is None:  # no "\r" in the region: every break in it is "\n"
                new_breaks = ["\n"] * (len(new_lines) - 1) + [last_break]
            breaks[sl : el + 1] = new_breaks
        lines[sl : el + 1] = new_lines
        self._length += len(region) - removed

    def _joins_breaks(self, sl: int, el: int, region: str) -> bool:
        r"""Would the new text of lines sl..el start with a "\n" right after a lone "\r"?"""
        if self.breaks is None or sl == 0 or self.breaks[sl - 1] != "\r":
            return False
        return region.startswith("\n") or (not region and self.breaks[el].startswith("\n"))

    def _clamp(self, position: tuple[int, int], encoding: str) -> tuple[int, int]:
        """A client position -> (line, code-point column), inside the document and before the
        line's break (LSP: a column past the end of a line means its end)."""
        line, column = position
        lines = self.lines
        if line < 0:
            return 0, 0
        if line >= len(lines):
            return len(lines) - 1, len(lines[-1])
        return line, from_client_column(lines[line], column, encoding)


@dataclass
class TextDocumentState:
    uri: str
    version: int | None
    buffer: TextBuffer
    language_id: str = "python"

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.uri)


# -- notebooks ---------------------------------------------------------------------------------


@dataclass
class Cell:
    uri: str
    kind: int  # 1 markup, 2 code (lsprotocol NotebookCellKind)
    buffer: TextBuffer
    language_id: str = "python"
    version: int | None = None
    # The masked text and the cell text it was made from (see masked()).
    _masked: tuple[str, MaskedCell] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def is_python(self) -> bool:
        return self.kind == 2 and self.language_id in ("python", "")

    def masked(self) -> MaskedCell:
        """The cell as Python, IPython lines masked exactly as the CLI masks them.  Kept until
        the cell changes: every keystroke rebuilds the module from all cells."""
        text = self.buffer.text
        if self._masked is None or self._masked[0] != text:
            self._masked = (text, mask_ipython(text))
        return self._masked[1]


@dataclass
class LineMap:
    """Where each code cell sits in the combined module (1-based module lines)."""

    starts: list[int] = field(default_factory=list)
    uris: list[str] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    masked: list[frozenset[int]] = field(default_factory=list)  # per cell, 0-based lines

    def locate(self, module_line: int) -> tuple[str, int] | None:
        """Module line (1-based) -> (cell uri, 0-based line in the cell); None outside the
        cells and on IPython lines, whose module text is not the cell's (nothing may point
        there, and no edit may rewrite them)."""
        index = bisect.bisect_right(self.starts, module_line) - 1
        if index < 0:
            return None
        offset = module_line - self.starts[index]
        if offset >= self.counts[index] or offset in self.masked[index]:
            return None
        return self.uris[index], offset

    def module_line(self, uri: str, cell_line: int) -> int | None:
        """(cell uri, 0-based cell line) -> 1-based module line."""
        try:
            index = self.uris.index(uri)
        except ValueError:
            return None
        return self.starts[index] + max(0, min(cell_line, self.counts[index] - 1))


@dataclass
class NotebookState:
    uri: str
    version: int | None
    cells: list[Cell] = field(default_factory=list)
    # Cells taken out of the notebook whose text document was not closed.
    detached: dict[str, Cell] = field(default_factory=dict)

    def cell(self, uri: str) -> Cell | None:
        for cell in self.cells:
            if cell.uri == uri:
                return cell
        return None

    def known_cells(self) -> dict[str, Cell]:
        """Every cell whose text the server holds: in the notebook or detached from it."""
        return {**self.detached, **{cell.uri: cell for cell in self.cells}}

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.uri)

    def module(self) -> tuple[str, LineMap]:
        """The code cells joined into one module, and where each cell landed."""
        parts: list[str] = []
        mapping = LineMap()
        line = 1
        for cell in self.cells:
            if not cell.is_python:
                continue
            masked = cell.masked()
            text = masked.text
            if not text.endswith("\n"):
                text += "\n"
            count = text.count("\n")
            mapping.starts.append(line)
            mapping.uris.append(cell.uri)
            mapping.counts.append(count)
            mapping.masked.append(masked.masked)
            parts.append(text)
            line += count
        return "".join(parts), mapping


def structure_change(data: Any) -> tuple[tuple[int, int] | None, tuple[int, int] | None, str]:
    """An lsprotocol content-change event -> (start, end, text)."""
    change_range = getattr(data, "range", None)
    if change_range is None:
        return None, None, data.text
    return (
        (change_range.start.line, change_range.start.character),
        (change_range.end.line, change_range.end.character),
        data.text,
    )
