"""Small helpers shared by the worker's handlers and probes."""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterable, Mapping
from typing import Any

ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(text: str) -> str:
    """Keras 3 wraps parts of its messages in bold escapes (``\\x1b[1m``)."""
    return ANSI_RE.sub("", text)


def describe_exception(
    exc: BaseException, files: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Type, message (ANSI stripped), MRO names and the deepest line in the user's files.

    ``files`` maps the paths code was compiled from (scratch copies) to the paths the user
    knows; frames in those files give ``line`` and are renamed in the traceback text.
    """
    files = files or {}
    frames = traceback.extract_tb(exc.__traceback__)
    line = None
    function = None
    for frame in frames:
        if frame.filename in files:
            line, function = frame.lineno, frame.name
    text = strip_ansi("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    lines = text.splitlines()
    kind = type(exc)
    return {
        "type": kind.__name__,
        "qualname": f"{kind.__module__}.{kind.__qualname__}",
        "mro": [k.__name__ for k in kind.__mro__ if k not in (object, BaseException)],
        "message": rename_paths(strip_ansi(str(exc)), files),
        "line": line,
        "function": function,
        "traceback": rename_paths("\n".join(lines[-40:]), files),
    }


# The worker imports a user's module under a private name; people know it by its file name.
USER_MODULE_RE = re.compile(r"tflsp_user_\d+_\d+_")


def rename_paths(text: str, files: Mapping[str, str]) -> str:
    """Scratch paths and private module names as the user knows them."""
    for scratch, shown in files.items():
        if scratch != shown:
            text = text.replace(scratch, shown)
    return USER_MODULE_RE.sub("", text)


def user_line(stack: Iterable[traceback.FrameSummary], files: Mapping[str, str]) -> int | None:
    """The innermost line of a stack that lies in the user's code."""
    found = None
    for frame in stack:
        if frame.filename in files:
            found = frame.lineno
    return found
