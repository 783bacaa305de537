"""Tiny helpers for writing MyST Markdown safely from catalog text.

Catalog text (titles, symptoms, observed program output) may contain backticks, pipes and
asterisks; these helpers keep such text literal instead of letting Markdown interpret it.
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_\[\]{}<>|#~$])")
_BACKTICK_RUN = re.compile(r"`+")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def escape(text: str) -> str:
    """Plain text that Markdown shows as typed (one line)."""
    return _escape_raw(" ".join(text.split()))


def _escape_raw(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def code(text: str) -> str:
    """An inline code span showing ``text`` exactly (regexes care about every space)."""
    text = text.replace("\r\n", " ").replace("\n", " ")
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    fence = "`" * (longest + 1)
    # CommonMark strips one space on each side when both are there, and a backtick at an
    # edge would merge with the fence: padding keeps the content as it is.
    edge_tick = text.startswith("`") or text.endswith("`")
    both_spaces = text.startswith(" ") and text.endswith(" ") and text.strip() != ""
    pad = " " if edge_tick or both_spaces else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(text: str, info: str = "text") -> str:
    """A fenced code block long enough not to be closed by backticks inside ``text``."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{fence}{info}\n{body}{fence}\n"


def cell(markdown: str) -> str:
    """Markdown that fits in one GFM table cell."""
    return _UNESCAPED_PIPE.sub(r"\\|", markdown.replace("\n", " "))


def doc_link(docname: str, text: str) -> str:
    """A ``{doc}`` role with an absolute docname, valid from any page (and from includes)."""
    safe = text.replace("<", "\\<").replace("`", "'")
    return f"{{doc}}`{safe} </{docname}>`"


def ref_link(label: str, text: str) -> str:
    safe = text.replace("<", "\\<").replace("`", "'")
    return f"{{ref}}`{safe} <{label}>`"


_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


def inline(text: str) -> str:
    """Catalog text on one line: its `code spans` stay code, everything else is literal."""
    text = " ".join(text.split())
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape_raw(text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_escape_raw(text[last:]))
    return "".join(out)


_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_ENDS_CJK = re.compile(f"[{_CJK}]$")
_STARTS_CJK = re.compile(f"^[{_CJK}]")
_BLOCK_START = re.compile(r"^(?:[-*+:>|#]|\d+[.)]\s|`{3,}|~{3,}|\.\.\s|\(.*\)=$|%)")
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})")


def join_cjk_lines(text: str) -> str:
    """Join soft line breaks between two Japanese characters.

    Browsers render a line break inside a paragraph as a space, which is right between
    English words and wrong inside a Japanese sentence (``トレースされま す``).  Lines inside
    code fences, and lines that start a new block, are left alone.
    """
    out: list[str] = []
    in_fence: str | None = None
    joinable = False  # may the next line be appended to out[-1]?
    for line in text.split("\n"):
        fence = _FENCE_LINE.match(line)
        if fence:
            mark = fence.group(1)
            if in_fence is None:
                in_fence = mark
            elif mark[0] == in_fence[0] and len(mark) >= len(in_fence):
                in_fence = None
            out.append(line)
            joinable = False
            continue
        body = line.lstrip()
        if (
            in_fence is None
            and joinable
            and body
            and _STARTS_CJK.match(body)
            and not _BLOCK_START.match(body)
        ):
            out[-1] += body
        else:
            out.append(line)
        joinable = in_fence is None and bool(_ENDS_CJK.search(out[-1].rstrip()))
    return "\n".join(out)
