"""Split a module into top-level blocks that can be parsed and analysed independently.

A block is one top-level statement (with its decorators, comments and ``else``/``except``
clauses).  Splitting uses no tokenizer: every line that starts in column 0 with code starts a
candidate block, and the parser then tells whether the candidate was really complete.  A
candidate that ends inside a bracket or a string fails with an end-of-input error and is merged
with the next candidate; any other syntax error stays inside its own block, so a half-typed line
never costs the rest of the module its diagnostics.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

# Line breaks as Python (and LSP) count them.
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


def normalise_newlines(source: str) -> str:
    r"""``\r\n`` and lone ``\r`` as ``\n``: the analysis splits lines on ``\n`` only.

    Python ends a line at any of the three, so line numbers and columns stay the same.  Files
    with Windows line breaks, old Mac ones, or a mix of them are analysed as Python reads them.
    """
    if "\r" not in source:
        return source
    return source.replace("\r\n", "\n").replace("\r", "\n")


def line_starts(source: str) -> list[int]:
    """Offset of the start of each line of ``source``, any line break counted."""
    return [0, *(m.end() for m in _LINE_BREAK_RE.finditer(source))]


def first_line_break(source: str) -> str:
    r"""The first line break of ``source`` (``\n`` when it has none)."""
    match = _LINE_BREAK_RE.search(source)
    return match.group() if match is not None else "\n"


# A line that starts with code in column 0.  Closing brackets and comments do not start blocks.
# Matching the newline before it (rather than a MULTILINE "^") lets the regex engine jump from
# newline to newline: twenty times faster on a 5,000-line module.
_START_RE = re.compile(r"\n(?=[^\s#)\]}])")
# Clauses that continue the previous compound statement.
_CONTINUATION_RE = re.compile(r"(?:else|elif|except|finally)\b")


@dataclass(frozen=True, slots=True)
class Chunk:
    """A candidate block: ``text`` starts at 1-based line ``start_line``."""

    start_line: int
    text: str

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)


def split_chunks(source: str) -> list[Chunk]:
    """Cut ``source`` at column-0 code lines; decorators and clauses stay with their statement."""
    return [chunk for _, chunk in _chunks_from(source, 0, 1)]


# How far past its end a candidate's text is read to decide where it ends (the clause test).
_LOOKAHEAD = 16


def _chunks_from(source: str, begin: int, line: int) -> Iterator[tuple[int, Chunk]]:
    """(offset, chunk) for the chunks of ``source`` from ``begin``, which must be the offset of
    a chunk (0, or where a chunk of the whole text starts) on 1-based line ``line``.  What is
    cut from there on depends only on the text from there on."""
    # Found as they are needed: a caller that recognises the rest of the text (resplit) stops
    # early, and a keystroke must not scan the whole module for where its lines start.
    size = len(source)
    ends = chain((m.start() + 1 for m in _START_RE.finditer(source, begin)), (size,))
    pending_start = -1
    pending_line = line
    start = begin
    for end in ends:
        if pending_start < 0:
            pending_start, pending_line = start, line
        line += source.count("\n", start, end)
        keep_going = (
            end < size
            and (
                # A decorator (or decorators) joins the def/class it decorates.
                (source.startswith("@", start) and not _has_def_or_class(source, start, end))
                # The next clause continues this compound statement.
                or _CONTINUATION_RE.match(source[end : end + _LOOKAHEAD]) is not None
            )
        )
        if not keep_going:
            yield pending_start, Chunk(pending_line, source[pending_start:end])
            pending_start = -1
        start = end
    if pending_start >= 0:
        yield pending_start, Chunk(pending_line, source[pending_start:])


@dataclass(frozen=True, slots=True)
class Split:
    """A text and its chunks, with the offset each chunk starts at.

    A split cut from an earlier one (:func:`resplit`) says what it kept of it, so that the
    analysis of the earlier text can be kept for the same stretches: its first ``head`` chunks
    are the earlier split's first ones (the very objects), and its last ``tail`` chunks have the
    texts of the earlier split's last ones, ``shift`` lines further down.
    """

    source: str
    offsets: list[int]
    chunks: list[Chunk]
    head: int = 0
    tail: int = 0
    shift: int = 0


def resplit(source: str, previous: Split | None = None) -> Split:
    """:func:`split_chunks`, reusing ``previous`` (the split of an earlier version).

    An edit changes a stretch of the text: the chunks before it, and those after it once a
    chunk boundary falls where the old text had one, are the old ones (those after it moved by
    the edit's length and line count).  Only the stretch in between is cut again, so a
    keystroke does not re-split the whole module.
    """
    if previous is None:
        pairs = list(_chunks_from(source, 0, 1))
        return Split(source, [o for o, _ in pairs], [c for _, c in pairs])
    old = previous.source
    if old == source:
        return previous
    prefix = _common_prefix(old, source)
    suffix = _common_suffix(old, source, min(len(old), len(source)) - prefix)
    offsets, chunks = previous.offsets, previous.chunks
    # Old chunks whose text and end decision (up to _LOOKAHEAD characters past their end) lie
    # in the unchanged prefix are kept.
    kept = max(bisect_right(offsets, prefix - _LOOKAHEAD) - 1, 0)
    out_offsets = offsets[:kept]
    out_chunks = chunks[:kept]
    begin, line = offsets[kept], chunks[kept].start_line
    delta = len(source) - len(old)
    tail = len(source) - suffix
    for offset, chunk in _chunks_from(source, begin, line):
        if offset >= tail and offset > begin:
            # Everything from here on is the old text from ``offset - delta``: when the old
            # text had a chunk there too, the rest is the old chunks, moved.
            k = bisect_left(offsets, offset - delta)
            if k < len(offsets) and offsets[k] == offset - delta:
                shift = chunk.start_line - chunks[k].start_line
                out_offsets.extend(map(delta.__add__, offsets[k:]))
                if shift:
                    out_chunks.extend(Chunk(c.start_line + shift, c.text) for c in chunks[k:])
                else:
                    out_chunks.extend(chunks[k:])
                return Split(source, out_offsets, out_chunks, kept, len(chunks) - k, shift)
        out_offsets.append(offset)
        out_chunks.append(chunk)
    return Split(source, out_offsets, out_chunks, kept)


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (a bisection that copies O(n) characters in all)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.startswith(a[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix, at most ``limit``."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.endswith(a[len(a) - mid : len(a) - lo], 0, len(b) - lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


_DEF_RE = re.compile(r"^(?:async\s+def|def|class)\b", re.MULTILINE)


def _has_def_or_class(source: str, begin: int, end: int) -> bool:
    return _DEF_RE.search(source, begin, end) is not None


# Messages CPython gives when the input ended inside a bracket, a string or a continuation.
_EOF_MESSAGES = (
    "was never closed",
    "unterminated triple-quoted string",
    "unexpected EOF",
    "EOF while scanning",
)


def ends_inside_construct(message: str) -> bool:
    """True when a syntax error means "the text stopped too early" (merge with what follows)."""
    return any(fragment in message for fragment in _EOF_MESSAGES)


# Tokens that change the lexical state: comments, string openers, brackets.
_LEX_RE = re.compile(
    r"""#[^\n]*|(?P<quote>[rRbBuUfF]{0,3}(?:'''|\"\"\"|'|"))|(?P<open>[(\[{])|(?P<close>[)\]}])"""
)
_STRING_END = {
    "'''": re.compile(r"(?:[^'\\]|\\.|'(?!''))*'''", re.DOTALL),
    '"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL),
    "'": re.compile(r"(?:[^'\\\n]|\\.)*'"),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*"'),
}


def lexical_extent(texts: list[str], stop: re.Pattern[str] | None = None) -> int | None:
    """How many texts after the first must be appended before brackets and strings close.

    ``texts`` are consecutive candidate blocks.  Strings are skipped whole, so the state at a
    candidate boundary is only the bracket depth.  ``stop`` ends the search at a candidate that
    starts with a statement (an unclosed bracket while typing must not swallow the module).
    Returns None when nothing closes within ``texts``.
    """
    joined = "".join(texts)
    boundaries = []
    offset = 0
    for text in texts:
        offset += len(text)
        boundaries.append(offset)
    depth = 0
    pos = 0
    next_boundary = 0
    while True:
        match = _LEX_RE.search(joined, pos)
        token_start = match.start() if match else len(joined)
        # Boundaries passed since the last token: the state there is the current depth.
        while next_boundary < len(boundaries) and boundaries[next_boundary] <= token_start:
            if next_boundary > 0 and depth <= 0:
                return next_boundary
            following = next_boundary + 1
            if stop is not None and following < len(texts) and stop.match(texts[following]):
                return None
            next_boundary += 1
        if match is None:
            return None
        if match.group("quote"):
            quote = match.group("quote").lstrip("rRbBuUfF")
            end = _STRING_END[quote].match(joined, match.end())
            if end is None:
                return None  # unterminated within the window
            pos = end.end()
            # Boundaries inside the string are not places where the text could be cut.
            while next_boundary < len(boundaries) and boundaries[next_boundary] < pos:
                next_boundary += 1
        elif match.group("open"):
            depth += 1
            pos = match.end()
        elif match.group("close"):
            depth -= 1
            pos = match.end()
        else:
            pos = match.end()
