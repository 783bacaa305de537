"""Notebook code cells as one analysable Python module, and the way back to (cell, line, column).

The cells of a notebook run in one namespace, so they are analysed together: a ``tf.function``
defined in cell 2 and called in cell 5 is one program.  IPython syntax that is not Python
(``%magic``, ``%%cell_magic``, ``!shell``, ``name?`` help, ``/autocall``) is masked line by line
so that the module parses and every other line keeps its number and columns.

Positions follow :mod:`tflsp.analysis.diagnostics`: module lines are 1-based, columns 0-based
code points.  Cells are numbered from 1 in the notebook's own order, markdown and raw cells
included, so "cell 4" is the fourth cell a reader sees (ruff numbers cells the same way).

This module has no side effects at import and knows nothing about the ``.ipynb`` JSON layout
(see :mod:`tflsp.ipynb`), so a language server that receives cells over LSP can use it as is.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

# Escapes that IPython accepts at the start of a logical line; none can start a Python
# statement, so masking them never hides real Python.
_ESCAPES = ("%", "!", "?", "/", ",", ";")
# ``files = !ls`` and ``t = %timeit -o f()``: IPython assigns the magic's result.
_MAGIC_ASSIGN = re.compile(r"[ \t]*[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=[ \t]*[%!]")
# Cell magics whose body is Python run in the user's namespace: analyse the body.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})


@dataclass(frozen=True)
class MaskedCell:
    """A cell's text made parseable, with the 0-based lines that were IPython syntax."""

    text: str
    masked: frozenset[int]


@dataclass
class _ScanState:
    quote: str | None = None  # the open string delimiter, if a string spans the line break
    depth: int = 0  # open brackets
    continued: bool = False  # the line ended with a backslash outside a string

    @property
    def at_statement_start(self) -> bool:
        return self.quote is None and self.depth == 0 and not self.continued


def _scan(line: str, state: _ScanState) -> int | None:
    """Advance ``state`` over one physical line; return the column where a comment starts."""
    quote = state.quote
    depth = state.depth
    comment: int | None = None
    continued = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote is not None:
            if ch == "\\":
                if i == n - 1:
                    continued = True
                i += 2
            elif line.startswith(quote, i):
                i += len(quote)
                quote = None
            else:
                i += 1
            continue
        if ch == "#":
            comment = i
            break
        if ch in "'\"":
            quote = line[i : i + 3] if line[i : i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == "\\" and i == n - 1:
            continued = True
        i += 1
    if quote in ("'", '"') and not continued:
        quote = None  # an unterminated one-line string: Python reports it, we move on
    state.quote = quote
    state.depth = depth
    state.continued = continued and quote is None
    return comment


def _is_line_magic(line: str) -> bool:
    stripped = line.lstrip(" \t")
    if not stripped:
        return False
    if stripped.startswith(_ESCAPES) or _MAGIC_ASSIGN.match(line):
        return True
    # ``tf.function?`` / ``model.fit??``: help requests end with a question mark in code.
    probe = _ScanState()
    comment = _scan(line, probe)
    code = line[:comment] if comment is not None else line
    return code.rstrip().endswith("?") and probe.quote is None


def _mask_line(line: str) -> str:
    """A no-op statement at the line's indentation, the original kept as a comment."""
    body = line.lstrip(" \t")
    indent = line[: len(line) - len(body)]
    return f"{indent}pass  # {body}"


def _cell_magic(lines: list[str]) -> tuple[int, str] | None:
    """(line index, magic name) when the cell starts with ``%%name`` (blank lines may precede)."""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if line.startswith("%%"):
            name = line[2:].split(None, 1)[0] if line[2:].strip() else ""
            return index, name
        return None
    return None


def mask_ipython(source: str) -> MaskedCell:
    """Replace IPython-only lines of one cell by Python of the same line count.

    Lines that continue a masked line with a trailing backslash are masked too.  A cell magic
    masks the whole cell unless its body is Python (:data:`PYTHON_CELL_MAGICS`), in which
    case only the ``%%`` line is masked.
    """
    if not any(ch in source for ch in _ESCAPES):
        return MaskedCell(source, frozenset())
    lines = source.split("\n")
    masked: set[int] = set()
    magic = _cell_magic(lines)
    if magic is not None:
        index, name = magic
        if name not in PYTHON_CELL_MAGICS:
            out = [f"# {line}" if line else line for line in lines]
            return MaskedCell("\n".join(out), frozenset(i for i, line in enumerate(lines) if line))
        lines[index] = _mask_line(lines[index])
        masked.add(index)
    state = _ScanState()
    continuing = False  # the previous masked line ended with a backslash
    for index, line in enumerate(lines):
        if index in masked:
            continue
        if continuing or (state.at_statement_start and _is_line_magic(line)):
            lines[index] = "#" + line if continuing else _mask_line(line)
            masked.add(index)
            continuing = line.rstrip("\r").endswith("\\")
            continue
        _scan(line, state)
    return MaskedCell("\n".join(lines), frozenset(masked))


@dataclass(frozen=True)
class CodeCell:
    """Where one code cell landed in the combined module."""

    number: int  # 1-based position among all cells of the notebook
    source: str  # the cell text as stored in the notebook
    start: int  # 1-based module line of the cell's first line
    lines: int  # module lines the cell occupies (0 for an empty cell)
    masked: frozenset[int]  # 0-based cell lines that hold IPython syntax

    @property
    def end(self) -> int:
        """1-based module line just after the cell."""
        return self.start + self.lines


@dataclass(frozen=True)
class CellPoint:
    """A position inside one cell: 1-based cell number and line, 0-based column."""

    cell: int
    line: int
    column: int


@dataclass(frozen=True)
class NotebookModule:
    """The code cells joined into one module, with the map back to cells."""

    text: str
    cells: tuple[CodeCell, ...]

    def cell_at(self, line: int) -> CodeCell | None:
        """The cell holding 1-based module ``line``."""
        starts = [cell.start for cell in self.cells]
        index = bisect.bisect_right(starts, line) - 1
        while index >= 0:
            cell = self.cells[index]
            if cell.start <= line < cell.end:
                return cell
            if cell.lines:
                return None
            index -= 1  # empty cells share their start line with the next one
        return None

    def cell(self, number: int) -> CodeCell | None:
        for cell in self.cells:
            if cell.number == number:
                return cell
        return None

    def locate(self, line: int, column: int) -> CellPoint | None:
        """Module position -> position in its cell (``None`` outside every code cell)."""
        cell = self.cell_at(line)
        if cell is None:
            return None
        return CellPoint(cell.number, line - cell.start + 1, column)

    def locate_end(self, start: CellPoint, line: int, column: int) -> CellPoint | None:
        """The end of a range that starts at ``start``.

        A range that runs to the start of the next cell (a deleted last line) ends at the end
        of its own cell instead, one line past the cell's last line.
        """
        cell = self.cell(start.cell)
        if cell is None:
            return None
        if column == 0 and line == cell.end:
            return CellPoint(cell.number, cell.lines + 1, 0)
        point = self.locate(line, column)
        if point is None or point.cell != start.cell:
            return None
        return point

    def module_line(self, number: int, line: int) -> int | None:
        """(cell number, 1-based cell line) -> 1-based module line."""
        cell = self.cell(number)
        if cell is None or not 1 <= line <= max(cell.lines, 1):
            return None
        return cell.start + line - 1

    def is_masked(self, point: CellPoint) -> bool:
        cell = self.cell(point.cell)
        return cell is not None and (point.line - 1) in cell.masked


def build_module(cells: Iterable[tuple[int, str]]) -> NotebookModule:
    """Join ``(cell number, source)`` pairs of code cells, IPython syntax masked."""
    parts: list[str] = []
    placed: list[CodeCell] = []
    line = 1
    for number, source in cells:
        masked = mask_ipython(source)
        text = masked.text
        if text and not text.endswith("\n"):
            text += "\n"
        count = text.count("\n")
        placed.append(CodeCell(number, source, line, count, masked.masked))
        parts.append(text)
        line += count
    return NotebookModule("".join(parts), tuple(placed))


def text_index(text: str, line: int, column: int) -> int:
    """Index of (1-based line, 0-based column) in ``text``, clamped to its length.

    A line past the end maps to the end, as :func:`tflsp.analysis.fixes.apply_edits` does.
    """
    index = 0
    for _ in range(line - 1):
        newline = text.find("\n", index)
        if newline < 0:
            return len(text)
        index = newline + 1
    return min(index + column, len(text))
