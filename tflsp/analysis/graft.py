"""Parse a class block again after an edit inside one of its methods, parsing only that method.

Typing in a method of a long class changes one method, yet ``ast.parse`` of the block walks
every line of the class on every keystroke (2.5-3 ms for a 400-line class, a sixth of the
keystroke).  When the edit keeps the number of lines and stays inside one method, the method's
lines are parsed alone, under a stand-in ``class _:`` line so that their indentation and
context are what they were (and after blank lines, so that their line numbers are too), and the
new method replaces the old one in a copy of the class node; the other methods' subtrees are
the old tree's, shared.

The result is the tree ``ast.parse`` would give (tests compare the two node for node, positions
included): the lines before and after the method are unchanged, and a method that parses alone
as exactly one ``def`` ends with every bracket and string closed, so the lines after it are read
as before.  Anything else (the edit touches a class-level line, adds or removes a line, or the
method does not parse alone as one ``def``) gives None, and the caller parses the whole block.

Nothing here mutates a node of the old tree: the old block may still be in use (the cache keeps
it for undo), and a shared subtree is read by both.
"""

from __future__ import annotations

import ast
import copy
import warnings

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_STAND_IN = "class _:\n"


def graft_method(old_tree: ast.Module, old_text: str, new_text: str) -> ast.Module | None:
    """The tree of ``new_text``, made from ``old_tree`` (the tree of ``old_text``) and a parse
    of the one method the edit changed; None when that does not apply."""
    body = old_tree.body
    if len(body) != 1 or not isinstance(body[0], ast.ClassDef):
        return None
    if "\r" in new_text or "\r" in old_text:
        return None  # Python ends a line at a lone \r too: line numbers would not be ours
    old_lines = old_text.split("\n")
    new_lines = new_text.split("\n")
    if len(old_lines) != len(new_lines) or old_text == new_text:
        return None
    first = 0  # 0-based index of the first changed line, then one past the last
    while old_lines[first] == new_lines[first]:
        first += 1
    end = len(new_lines)
    while old_lines[end - 1] == new_lines[end - 1]:
        end -= 1
    cls = body[0]
    found = _member_at(cls, first + 1, end, len(new_lines))
    if found is None:
        return None
    k, start_line, stop_line = found
    method = _parse_member(new_lines, start_line, stop_line)
    if method is None:
        return None
    members = list(cls.body)
    members[k] = method
    graft = copy.copy(cls)  # every field, whatever this Python's ClassDef has
    graft.body = members
    if k == len(members) - 1:  # a class ends where its last statement does
        graft.end_lineno, graft.end_col_offset = method.end_lineno, method.end_col_offset
    return ast.Module(body=[graft], type_ignores=[])


def _member_at(
    cls: ast.ClassDef, first: int, end: int, line_count: int
) -> tuple[int, int, int] | None:
    """The method whose lines hold the changed lines ``first``..``end`` (1-based, inclusive):
    its index in the class body and its lines, from its first decorator to the line before the
    next class-level statement (or the block's end) — the blank and comment lines after a
    method are where its next line is typed."""
    members = cls.body
    for k, stmt in enumerate(members):
        start = _first_line(stmt)
        if start > first or start <= cls.lineno:
            return None
        stop = _first_line(members[k + 1]) - 1 if k + 1 < len(members) else line_count
        if end <= stop:
            return (k, start, stop) if isinstance(stmt, _DEFS) else None
    return None


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    return decorators[0].lineno if decorators else stmt.lineno


def _parse_member(lines: list[str], start: int, stop: int) -> ast.stmt | None:
    """The one ``def`` that lines ``start``..``stop`` hold, positioned in the block, or None."""
    # Blank lines put the method on its own lines: cheaper than moving every node after.
    text = "\n" * (start - 2) + _STAND_IN + "\n".join(lines[start - 1 : stop])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # as parsing.py: Python's warnings are not ours
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    stand_in = tree.body
    if len(stand_in) != 1 or not isinstance(stand_in[0], ast.ClassDef):
        return None
    inner = stand_in[0].body
    if len(inner) != 1 or not isinstance(inner[0], _DEFS):
        return None
    return inner[0]
