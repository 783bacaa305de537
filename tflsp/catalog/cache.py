"""A compiled copy of the default catalog, kept next to the package like Python's ``.pyc``.

Reading and validating the pattern folders (TOML, Markdown, examples) was a third of tflsp's
start-up; unpickling the result of an earlier load takes a tenth of that.  The copy carries
the stamp of what that load read: every file's name, size and modification time in every
pattern folder, the folder's path, the loader's own code, the tflsp and Python versions.  It is used only when
the stamp of the folders now is the same, so an edit to any pattern is never missed.

As for ``.pyc`` files: the copy lives in ``catalog/__pycache__/``, is written only when Python
may write bytecode (not under ``PYTHONDONTWRITEBYTECODE``) and where the folder is writable,
and any failure to read or write it falls back to loading the folders.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

from tflsp import __version__
from tflsp.catalog.schema import Catalog

FILE_NAME = "catalog.pickle"
# The code whose output is stored: a change to it must not read an old copy.
_CODE = ("loader.py", "schema.py", "markers.py", "cache.py")


def stamp(directory: Path) -> str:
    """What a load of ``directory`` reads: names, sizes and times of the files."""
    here = Path(__file__).resolve().parent
    # The folder's own path too: the patterns remember where they were read from.
    parts = [f"{__version__} {sys.version} {pickle.HIGHEST_PROTOCOL} {directory.resolve()}"]
    stats = [(name, os.stat(here / name)) for name in _CODE]
    with os.scandir(directory) as folders:
        for folder in sorted(folders, key=lambda e: e.name):
            if folder.name.startswith(("_", ".")) or not folder.is_dir():
                continue
            with os.scandir(folder.path) as files:
                for entry in sorted(files, key=lambda e: e.name):
                    if entry.is_file():
                        stats.append((f"{folder.name}/{entry.name}", entry.stat()))
    parts.extend(f"{name} {st.st_size} {st.st_mtime_ns}" for name, st in stats)
    return "\n".join(parts)


def cached_catalog(directory: Path, load: Callable[[], Catalog]) -> Catalog:
    """The catalog of ``directory``: the stored copy when its stamp is current, else
    ``load()`` (stored for the next process when Python may write bytecode there)."""
    try:
        current = stamp(directory)
    except OSError:
        return load()
    path = directory.parent / "__pycache__" / FILE_NAME
    try:
        with open(path, "rb") as handle:
            found = pickle.load(handle)
        if (
            isinstance(found, tuple)
            and len(found) == 2
            and found[0] == current
            and isinstance(found[1], Catalog)
        ):
            return found[1]
    except Exception:  # absent, truncated or from another tflsp: load the folders
        pass
    catalog = load()
    if not sys.dont_write_bytecode:
        write(path, current, catalog)
    return catalog


def store(directory: Path, catalog: Catalog) -> Path | None:
    """Write the copy for ``directory`` whatever ``PYTHONDONTWRITEBYTECODE`` says (as
    ``py_compile`` does): for benchmarks that measure tflsp as installed."""
    return write(directory.parent / "__pycache__" / FILE_NAME, stamp(directory), catalog)


def write(path: Path, current: str, catalog: Catalog) -> Path | None:
    """Store ``catalog`` with its stamp at ``path``; None when it cannot."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        partial.write_bytes(pickle.dumps((current, catalog), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, path)  # atomic: a reader sees a whole copy, old or new
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        return None
    return path
