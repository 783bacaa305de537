"""Parse one block, recovering from a syntax error by neutralising the offending lines."""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from tflsp.analysis.blocks import ends_inside_construct

_MAX_RECOVERY_ATTEMPTS = 4
_INDENT_RE = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A syntax error, with block-relative 1-based line and 0-based column."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str

    @property
    def ends_early(self) -> bool:
        return ends_inside_construct(self.message)


@dataclass(frozen=True, slots=True)
class ParsedBlock:
    """``tree`` is None only when even recovery failed; ``error`` is the first syntax error."""

    tree: ast.Module | None
    error: SyntaxProblem | None
    # Block-relative lines that recovery replaced; nothing there is reported.
    neutralised: frozenset[int] = frozenset()
    # The text ``tree`` was parsed from when recovery made it (the block's text with the
    # neutralised lines replaced; every other line is the block's own).
    recovered: str | None = None


def _problem(exc: SyntaxError, line_count: int) -> SyntaxProblem:
    line = max(1, min(exc.lineno or 1, max(line_count, 1)))
    column = max(0, (exc.offset or 1) - 1)
    end_line = getattr(exc, "end_lineno", None) or line
    end_column = getattr(exc, "end_offset", None)
    end_col = max(column + 1, (end_column or column + 2) - 1) if end_line == line else column + 1
    if end_line != line:
        end_line = line
    return SyntaxProblem(line, column, end_line, end_col, exc.msg or "invalid syntax")


def _compile(text: str) -> ast.Module:
    # SyntaxWarnings (e.g. invalid escape sequences) belong to Python, not to this linter.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def try_parse(text: str) -> tuple[ast.Module | None, SyntaxProblem | None]:
    try:
        return _compile(text), None
    except SyntaxError as exc:
        return None, _problem(exc, text.count("\n") + 1)
    except (ValueError, RecursionError, MemoryError) as exc:
        # NUL bytes (ValueError) or absurd nesting: report on line 1, never crash.
        return None, SyntaxProblem(1, 0, 1, 1, f"cannot parse: {type(exc).__name__}: {exc}")


def parse_block(text: str, known: Callable[[str], ast.Module | None] | None = None) -> ParsedBlock:
    """``known`` gives the tree of a recovered text parsed before (a half-typed line is
    recovered to the same text keystroke after keystroke), or None."""
    tree, error = try_parse(text)
    if error is None:
        return ParsedBlock(tree, None)
    lines = text.split("\n")
    neutralised: set[int] = set()
    problem: SyntaxProblem | None = error
    for _ in range(_MAX_RECOVERY_ATTEMPTS):
        if problem is None or problem.line in neutralised or problem.line > len(lines):
            break
        _neutralise(lines, problem, neutralised)
        recovered = "\n".join(lines)
        tree = known(recovered) if known is not None else None
        if tree is None:
            tree, problem = try_parse(recovered)
        if tree is not None:
            return ParsedBlock(tree, error, frozenset(neutralised), recovered)
    return ParsedBlock(None, error, frozenset(neutralised))


def _indent_of(line: str) -> str:
    match = _INDENT_RE.match(line)
    return match.group(0) if match else ""


def _neutralise(lines: list[str], problem: SyntaxProblem, done: set[int]) -> None:
    """Replace the bad line with a statement of the same indentation.

    When more-indented lines follow, the replacement opens a block (``if True:``) so the body
    still parses and is still analysed.  An unclosed bracket also swallows its continuation
    lines, which are blanked.
    """
    index = problem.line - 1
    indent = _indent_of(lines[index])
    width = len(indent.expandtabs())
    end = index + 1
    if "was never closed" in problem.message:
        while end < len(lines):
            nxt = lines[end]
            if (
                nxt.strip()
                and len(_indent_of(nxt).expandtabs()) <= width
                and nxt.strip()[0] not in ")]}"
            ):
                break
            lines[end] = ""
            done.add(end + 1)
            end += 1
    following = next(
        (ln for ln in lines[end:] if ln.strip() and not ln.lstrip().startswith("#")), ""
    )
    opens_block = len(_indent_of(following).expandtabs()) > width
    lines[index] = indent + ("if True:" if opens_block else "pass")
    done.add(index + 1)
