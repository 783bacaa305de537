"""Workspace files an open document imports, read lazily and off the typing path.

The analyzer is told what a document imports from other files of the user's package
(:mod:`tflsp.analysis.workspace`).  Those files are read when the document's import
statements change (as text: found without parsing), and otherwise looked at again at most
once every :data:`RECHECK` seconds, by their modification stamps: typing that changes no
import reads no file.  An open document's text wins over the file on disk.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tflsp.analysis.workspace import Workspace, WorkspaceImports, import_texts

RECHECK = 1.0  # seconds between two looks at the imported files while typing

Stamp = tuple[object, ...]


@dataclass
class _Known:
    texts: tuple[str, ...]
    imported: WorkspaceImports | None
    stamps: tuple[Stamp, ...]
    checked: float


class ImportTracker:
    def __init__(
        self,
        open_text: Callable[[Path], str | None],
        open_revision: Callable[[Path], int | None],
    ) -> None:
        self.workspace = Workspace(read_open=open_text)
        self._open_revision = open_revision
        self._known: dict[str, _Known] = {}

    def imported_for(self, key: str, path: Path, source: str) -> WorkspaceImports | None:
        texts = import_texts(source)
        known = self._known.get(key)
        now = time.monotonic()
        if known is not None and known.texts == texts:
            if now - known.checked < RECHECK:
                return known.imported
            known.checked = now
            if self._stamps(known.imported) == known.stamps:
                return known.imported
        imported = self.workspace.imports_for(path, source)
        self._known[key] = _Known(texts, imported, self._stamps(imported), now)
        return imported

    def forget(self, key: str) -> None:
        self._known.pop(key, None)

    def _stamps(self, imported: WorkspaceImports | None) -> tuple[Stamp, ...]:
        if imported is None:
            return ()
        out: list[Stamp] = []
        for name, _digest in imported.files:
            revision = self._open_revision(Path(name))
            if revision is not None:
                out.append(("open", revision))
                continue
            try:
                stat = os.stat(name)
            except OSError:
                out.append(("gone",))
                continue
            out.append((stat.st_mtime_ns, stat.st_size))
        return tuple(out)
