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


class TextBuffer:
    """Lines of a document (without their ``\\n``); the joined text is built on demand."""

    __slots__ = ("_length", "_text", "lines")

    def __init__(self, text: str) -> None:
        self.lines: list[str] = text.split("\n")
        self._text: str | None = text
        self._length = len(text)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "\n".join(self.lines)
        return self._text

    def __len__(self) -> int:
        """Length in code points, kept up to date without joining the lines."""
        return self._length

    def line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def replace_all(self, text: str) -> None:
        self.lines = text.split("\n")
        self._text = text
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
        removed = sum(len(lines[i]) for i in range(sl, el + 1)) + (el - sl)
        new = (head + text + tail).split("\n")
        lines[sl : el + 1] = new
        self._length += len(head) + len(text) + len(tail) - removed
        self._text = None

    def _clamp(self, position: tuple[int, int], encoding: str) -> tuple[int, int]:
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

    def cell(self, uri: str) -> Cell | None:
        for cell in self.cells:
            if cell.uri == uri:
                return cell
        return None

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
