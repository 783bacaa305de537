"""Capture everything a program writes, at the file-descriptor level.

Redirecting ``sys.stdout`` is not enough: ``tf.print`` and TensorFlow's C++ logging write to
fds 1 and 2 directly, and logging handlers keep references to the stream objects they were
created with.  Pointing the descriptors themselves at temporary files catches all of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
import warnings
from collections.abc import Iterator
from types import TracebackType
from typing import IO, Any

DEFAULT_LIMIT = 1_000_000  # characters kept per stream


def _flush_everything() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    # C and C++ (synced with stdio) buffers: printf from extensions, std::cout from TF.
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)


def _read(handle: IO[bytes], limit: int) -> tuple[str, bool]:
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(0)
    if size <= limit:
        return handle.read().decode("utf-8", errors="replace"), False
    half = limit // 2
    head = handle.read(half).decode("utf-8", errors="replace")
    handle.seek(size - half)
    tail = handle.read().decode("utf-8", errors="replace")
    return f"{head}\n[... {size - 2 * half} bytes not kept ...]\n{tail}", True


class OutputCapture:
    """``with OutputCapture() as cap: ...`` then read ``cap.stdout`` / ``cap.stderr``."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self.stdout = ""
        self.stderr = ""
        self.truncated = False

    def __enter__(self) -> OutputCapture:
        _flush_everything()
        self._files = (tempfile.TemporaryFile(), tempfile.TemporaryFile())
        self._saved_fds = (os.dup(1), os.dup(2))
        self._saved_streams = (sys.stdout, sys.stderr)
        os.dup2(self._files[0].fileno(), 1)
        os.dup2(self._files[1].fileno(), 2)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        _flush_everything()
        # User code may have replaced the stream objects; put ours back.
        sys.stdout, sys.stderr = self._saved_streams
        os.dup2(self._saved_fds[0], 1)
        os.dup2(self._saved_fds[1], 2)
        for fd in self._saved_fds:
            os.close(fd)
        out, err = self._files
        self.stdout, cut_out = _read(out, self.limit)
        self.stderr, cut_err = _read(err, self.limit)
        self.truncated = cut_out or cut_err
        out.close()
        err.close()


@contextlib.contextmanager
def fresh_warnings(baseline: list[Any]) -> Iterator[list[dict[str, Any]]]:
    """Warning filters as a fresh interpreter has them, with every shown warning recorded.

    The ``default`` action shows a warning once per code location and remembers that in
    per-module registries; in a long-lived worker the second program would see nothing.
    Resetting the filter list bumps the filters version, which invalidates those registries.
    """
    shown: list[dict[str, Any]] = []
    with warnings.catch_warnings():
        warnings.filters[:] = list(baseline)  # type: ignore[index]
        # Appending the implicit fallback ("default" for everything) changes nothing about
        # which warnings are shown, but it is the public way to mark the filters as changed.
        warnings.simplefilter("default", append=True)
        original = warnings.showwarning

        def record(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: Any = None,
            line: str | None = None,
        ) -> None:
            shown.append(
                {
                    "category": category.__name__,
                    "message": str(message),
                    "filename": filename,
                    "line": lineno,
                }
            )
            original(message, category, filename, lineno, file, line)

        warnings.showwarning = record
        yield shown
