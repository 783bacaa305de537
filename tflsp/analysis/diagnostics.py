"""What the analyzer reports: diagnostics with optional fixes.

Positions: lines are 1-based, columns are 0-based offsets in Unicode code points (not UTF-8
bytes as in :mod:`ast`, not UTF-16 units as in LSP); front ends convert at their boundary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from tflsp.catalog.schema import Pattern

SYNTAX_ERROR_CODE = "TFL000"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between two positions (end exclusive) with ``text``."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def shifted(self, lines: int) -> Edit:
        return replace(self, line=self.line + lines, end_line=self.end_line + lines)

    def as_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class Fix:
    edits: tuple[Edit, ...]
    safe: bool
    # Arguments for the catalog's fix title template, e.g. {"new": "tf.print"}.
    args: Mapping[str, str] = field(default_factory=dict)

    def shifted(self, lines: int) -> Fix:
        return replace(self, edits=tuple(e.shifted(lines) for e in self.edits))


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    message_id: str = "default"
    args: Mapping[str, str] = field(default_factory=dict)
    fix: Fix | None = None
    # Set only for TFL000, whose text comes from Python's parser rather than the catalog.
    raw_message: str | None = None

    def shifted(self, lines: int) -> Diagnostic:
        if not lines:
            return self
        return replace(
            self,
            line=self.line + lines,
            end_line=self.end_line + lines,
            fix=self.fix.shifted(lines) if self.fix else None,
        )

    def message(self, pattern: Pattern | None, lang: str = "en") -> str:
        if self.raw_message is not None or pattern is None:
            return self.raw_message or self.code
        return pattern.message(self.message_id, lang, self.args)

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (self.line, self.column, self.code)


def syntax_error_diagnostic(
    line: int, column: int, message: str, end_line: int | None = None, end_column: int | None = None
) -> Diagnostic:
    return Diagnostic(
        code=SYNTAX_ERROR_CODE,
        line=line,
        column=column,
        end_line=end_line if end_line is not None else line,
        end_column=end_column if end_column is not None else column + 1,
        severity="error",
        message_id="syntax",
        raw_message=f"SyntaxError: {message}",
    )
