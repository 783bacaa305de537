"""``# tflsp: ignore`` and ``# tflsp: ignore[TFL101, TFL102]`` comments."""

from __future__ import annotations

import re
from dataclasses import dataclass

IGNORE_RE = re.compile(r"#\s*tflsp:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
CODE_RE = re.compile(r"TFL\d{3}", re.IGNORECASE)

ALL = frozenset({"*"})


@dataclass(frozen=True, slots=True)
class Suppression:
    line: int  # block-relative or module line, depending on who built it
    column: int  # where the comment starts
    end_column: int
    codes: frozenset[str]  # {"*"} for a bare ``# tflsp: ignore``
    # (code, start column, end column) of each code inside the brackets, for hover.
    code_spans: tuple[tuple[str, int, int], ...] = ()

    def covers(self, code: str) -> bool:
        return self.codes is ALL or "*" in self.codes or code in self.codes


def find_suppressions(text: str) -> dict[int, Suppression]:
    """Map 1-based line -> suppression for every ``# tflsp: ignore`` comment in ``text``."""
    found: dict[int, Suppression] = {}
    if "tflsp" not in text:
        return found
    for lineno, line in enumerate(text.split("\n"), start=1):
        if "tflsp" not in line:
            continue
        match = IGNORE_RE.search(line)
        if match is None:
            continue
        codes_text = match.group("codes")
        if codes_text is None:
            found[lineno] = Suppression(lineno, match.start(), match.end(), ALL)
            continue
        spans = []
        offset = match.start("codes")
        for code_match in CODE_RE.finditer(codes_text):
            spans.append(
                (
                    code_match.group(0).upper(),
                    offset + code_match.start(),
                    offset + code_match.end(),
                )
            )
        found[lineno] = Suppression(
            lineno,
            match.start(),
            match.end(),
            frozenset(code for code, _, _ in spans),
            tuple(spans),
        )
    return found
