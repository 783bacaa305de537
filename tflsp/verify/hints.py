"""Point a runtime failure at the catalog pattern that explains it.  Stdlib only.

Each pattern lists ``symptoms``: messages users see.  A failure message matches a symptom when
the symptom's text (without its ``Type:`` prefix, with quoted names as wildcards) appears in
it.  So ``TypeError: Could not locate class 'MyNet'`` finds the pattern whose symptom is
``Could not locate class 'Model'``, without the verifier hard-coding any pattern code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tflsp.catalog import Pattern

_PREFIX_RE = re.compile(r"^\s*[A-Za-z_][\w.]*(Error|Exception|Warning)\s*:\s*")
_QUOTED_RE = re.compile(r"('[^']*'|`[^`]*`|\"[^\"]*\")")
_SPACE_RE = re.compile(r"\s+")
MIN_LENGTH = 12  # shorter symptoms ("ValueError") would match everything


_PLACEHOLDER_RE = re.compile(r"^My[A-Z]\w*$")  # "MyModel", "MyLayer": names in symptom texts


def _symptom_regex(symptom: str, level: int) -> re.Pattern[str] | None:
    """The symptom as a regex.  ``level`` 0: exact; 1: quoted names and ``My...`` placeholders
    match any name; 2: backticked text matches anything too."""
    core = _PREFIX_RE.sub("", symptom).strip().rstrip(".")
    if len(core) < MIN_LENGTH:
        return None
    parts = []
    literal = 0
    for piece in _QUOTED_RE.split(core):
        if not piece:
            continue
        quoted = _QUOTED_RE.fullmatch(piece) is not None
        if quoted and (level >= 2 or (level == 1 and piece[0] != "`")):
            parts.append(re.escape(piece[0]) + r"[^'`\"]*" + re.escape(piece[-1]))
            continue
        if quoted:
            literal += len(piece)
            parts.append(re.escape(piece))
            continue
        words = []
        for word in piece.split():
            if level >= 1 and _PLACEHOLDER_RE.match(word):
                words.append(r"\w+")
            else:
                literal += len(word)
                words.append(re.escape(word))
        lead = r"\s*" if piece[:1].isspace() else ""
        tail = r"\s*" if piece[-1:].isspace() else ""
        parts.append(lead + r"\s+".join(words) + tail)
    # A symptom that is mostly names ("'X' object has no attribute 'y'") says little once
    # the names are wildcards; only its exact form may match.
    if level and literal < 0.6 * len(core):
        return None
    return re.compile("".join(parts), re.IGNORECASE)


def patterns_for(message: str, patterns: Iterable[Pattern]) -> list[Pattern]:
    """Patterns with a symptom found in ``message``, best first (exact, then longest)."""
    scored = []
    for pattern in patterns:
        best = 0.0
        for symptom in pattern.symptoms:
            for level, weight in ((0, 1.0), (1, 0.6), (2, 0.4)):
                regex = _symptom_regex(symptom, level)
                if regex is not None and regex.search(message):
                    best = max(best, weight * len(symptom))
                    break
        if best:
            scored.append((best, pattern))
    return [p for _, p in sorted(scored, key=lambda item: (-item[0], item[1].code))]
