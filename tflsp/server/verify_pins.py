"""Verifier results as diagnostics (source ``tflsp-verify``), pinned to the code they verified.

A result belongs to the text that ran.  It stays while the block holding the class or function
is unchanged - moving with it when lines above are added or removed - and is dropped at the
first edit inside that block (or in the comments right above it, where
``# tflsp: verify(...)`` lives).  Blank lines after the block do not count as an edit.

Pins are published together with the analyzer's diagnostics (push and pull) but kept apart
from them: hover, quick fixes and "fix all" only ever see the analyzer's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tflsp.server.positions import to_client_column

if TYPE_CHECKING:
    from tflsp.analysis.engine import BlockView
    from tflsp.server.workspace import Target

VERIFY_SOURCE = "tflsp-verify"


@dataclass(frozen=True)
class PinnedDiagnostic:
    severity: int  # LSP DiagnosticSeverity
    message: str
    code: str | None = None
    href: str | None = None
    # (module line offset from the header, message): where a finding really happened
    related: tuple[tuple[int, str], ...] = ()


@dataclass
class Pin:
    name: str
    header: int  # module line (1-based) of the ``class``/``def`` line
    block_start: int
    block_text: str  # the block, trailing blank lines dropped
    comments: str  # comment lines right above the block
    items: list[PinnedDiagnostic] = field(default_factory=list)


@dataclass
class PinnedRendered:
    uri: str
    lsp: dict[str, Any]

    @property
    def json(self) -> str:
        return json.dumps(self.lsp, separators=(",", ":"))


def _comments_above(lines: list[str], start: int) -> str:
    """Comment lines directly above module line ``start`` (1-based), top to bottom."""
    found: list[str] = []
    index = start - 2
    while index >= 0 and lines[index].lstrip().startswith("#"):
        found.append(lines[index].strip())
        index -= 1
    return "\n".join(reversed(found))


def _block_code(block: BlockView) -> str:
    return block.analysis.text.rstrip()


def _same_code(block: BlockView, code: str) -> bool:
    """``_block_code(block) == code`` without copying the block's text."""
    text = block.analysis.text
    return text.startswith(code) and not text[len(code) :].strip()


class VerifyPins:
    def __init__(self) -> None:
        self._pins: dict[str, dict[str, Pin]] = {}
        self._stamps: dict[str, int] = {}

    def stamp(self, key: str) -> int:
        """Changes whenever the pins of ``key`` change (part of pull-diagnostic result ids)."""
        return self._stamps.get(key, 0)

    def _bump(self, key: str) -> None:
        self._stamps[key] = self._stamps.get(key, 0) + 1

    def pins(self, key: str) -> list[Pin]:
        return list(self._pins.get(key, {}).values())

    @staticmethod
    def make_pin(target: Target, name: str, header: int) -> Pin | None:
        """A pin (without diagnostics yet) for the block that holds module line ``header``,
        taken when the verification starts: its result belongs to that text."""
        result = target.result
        block = result.block_at(header) if result is not None else None
        if block is None:
            return None
        return Pin(
            name=name,
            header=header,
            block_start=block.start_line,
            block_text=_block_code(block),
            comments=_comments_above(target.source.split("\n"), block.start_line),
        )

    def attach(self, target: Target, pin: Pin, items: list[PinnedDiagnostic]) -> bool:
        """Show ``items`` on ``pin``'s block, replacing an earlier result for the same name.
        When that block was edited while the verifier ran, the result is stale: nothing is
        shown (and the earlier result goes too).  Returns whether the result is shown."""
        pins = self._pins.setdefault(target.key, {})
        pins.pop(pin.name, None)
        pin.items = list(items)
        pins[pin.name] = pin
        self._bump(target.key)
        self.reconcile(target)
        return pin.name in pins

    def forget(self, key: str) -> None:
        if self._pins.pop(key, None):
            self._bump(key)

    def reconcile(self, target: Target) -> None:
        """Follow each pin to its block in the latest analysis; drop pins whose block changed."""
        pins = self._pins.get(target.key)
        if not pins:
            return
        result = target.result
        blocks = result.blocks if result is not None else []
        lines: list[str] | None = None
        for name, pin in list(pins.items()):
            moved: int | None = None
            # Nearest first: two identical blocks (rare) keep the pin on the one it was on.
            candidates = sorted(blocks, key=lambda b: abs(b.start_line - pin.block_start))
            for block in candidates:
                if not _same_code(block, pin.block_text):
                    continue
                if lines is None:
                    lines = target.source.split("\n")
                if _comments_above(lines, block.start_line) != pin.comments:
                    continue
                moved = block.start_line
                break
            if moved is None:
                del pins[name]
                self._bump(target.key)
            elif moved != pin.block_start:
                pin.header += moved - pin.block_start
                pin.block_start = moved

    def rendered(self, target: Target, encoding: str) -> list[PinnedRendered]:
        self.reconcile(target)
        out: list[PinnedRendered] = []
        for pin in self._pins.get(target.key, {}).values():
            where = target.locate(pin.header)
            if where is None:
                continue
            uri, line, text = where
            start, end = _name_span(text, pin.name)
            rng = {
                "start": {"line": line, "character": to_client_column(text, start, encoding)},
                "end": {"line": line, "character": to_client_column(text, end, encoding)},
            }
            for item in pin.items:
                lsp: dict[str, Any] = {
                    "range": rng,
                    "severity": item.severity,
                    "source": VERIFY_SOURCE,
                    "message": item.message,
                    "data": {"verify": pin.name},
                }
                if item.code:
                    lsp["code"] = item.code
                    if item.href:
                        lsp["codeDescription"] = {"href": item.href}
                related = []
                for offset, message in item.related:
                    other = target.locate(pin.header + offset)
                    if other is None:
                        continue
                    other_text = other[2]
                    indent = len(other_text) - len(other_text.lstrip())
                    related.append(
                        {
                            "location": {
                                "uri": other[0],
                                "range": {
                                    "start": {
                                        "line": other[1],
                                        "character": to_client_column(other_text, indent, encoding),
                                    },
                                    "end": {
                                        "line": other[1],
                                        "character": to_client_column(
                                            other_text, len(other_text), encoding
                                        ),
                                    },
                                },
                            },
                            "message": message,
                        }
                    )
                if related:
                    lsp["relatedInformation"] = related
                out.append(PinnedRendered(uri, lsp))
        return out


def _name_span(text: str, name: str) -> tuple[int, int]:
    """Code-point columns of the class or function name on its header line."""
    short = re.escape(name.rsplit(".", 1)[-1])
    match = re.search(rf"\b(?:class|def)\s+({short})\b", text)
    if match is not None:
        return match.start(1), match.end(1)
    stripped = text.lstrip()
    return len(text) - len(stripped), len(text.rstrip())
