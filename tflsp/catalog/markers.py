"""Expected-diagnostic markers in ``bad.py`` files: ``x = 1  # [TFL101]`` or ``# [TFL101, TFL103]``."""

from __future__ import annotations

import re

MARKER_RE = re.compile(r"#\s*\[(TFL\d{3}(?:\s*,\s*TFL\d{3})*)\]")


def parse_markers(source: str) -> list[tuple[int, str]]:
    """Return sorted ``(line, code)`` pairs (1-based lines) for every marker in ``source``."""
    found: list[tuple[int, str]] = []
    for lineno, line in enumerate(source.splitlines(), start=1):
        for match in MARKER_RE.finditer(line):
            for code in match.group(1).split(","):
                found.append((lineno, code.strip()))
    return sorted(found)


def strip_markers(source: str) -> str:
    """The example without its markers, as shown in docs."""
    lines = []
    for line in source.splitlines(keepends=True):
        stripped = MARKER_RE.sub("", line)
        if stripped != line:
            ending = "\n" if line.endswith("\n") else ""
            stripped = stripped.rstrip() + ending
        lines.append(stripped)
    return "".join(lines)
