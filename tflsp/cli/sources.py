"""Finding and reading the files to check, with a clear error per file instead of a crash."""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        "__pycache__",
        "build",
        "dist",
        "site-packages",
        ".mypy_cache",
        ".ruff_cache",
        ".tflsp_cache",
        ".pytest_cache",
        ".ipynb_checkpoints",
    }
)
# Notebooks are found in directories too, as ruff does; see tflsp.cli.notebooks.
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")


class SourceError(Exception):
    """A file that cannot be checked; the message says why in one line."""


@dataclass(frozen=True)
class SourceText:
    text: str
    encoding: str
    bom: bool


def discover(
    paths: Iterable[str], suffixes: tuple[str, ...] = SOURCE_SUFFIXES
) -> Iterator[tuple[str, str | None]]:
    """Yield ``(path, error)``: files under the given paths; an error for paths that do not exist.

    Files named explicitly are checked whatever their suffix; directories are searched for
    ``suffixes``, skipping virtual environments, caches and hidden directories.
    """
    for raw in paths:
        if raw == "-":
            yield raw, None
            continue
        path = Path(raw)
        if path.is_file():
            yield str(path), None
        elif path.is_dir():
            yield from ((str(p), None) for p in _walk(path, suffixes))
        else:
            yield raw, "no such file or directory"


def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry.is_dir():
            if (
                entry.name in SKIP_DIRS
                or entry.name.startswith(".")
                or entry.name.endswith(".egg-info")
            ):
                continue
            yield from _walk(entry, suffixes)
        elif entry.suffix in suffixes and entry.is_file():
            yield entry


def decode(data: bytes) -> SourceText:
    """Decode Python source bytes as the interpreter would (BOM, PEP 263 coding cookie)."""
    if b"\x00" in data[:8192]:
        raise SourceError("binary file (contains NUL bytes); not checked")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        # detect_encoding reports undecodable bytes in the first lines this way.
        raise SourceError("not valid UTF-8 text and no coding declaration; not checked") from exc
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        label = "UTF-8" if encoding.startswith("utf-8") else encoding
        raise SourceError(
            f"not valid {label} text ({exc.__class__.__name__}); not checked"
        ) from exc
    if text.startswith("\ufeff"):
        text = text[1:]
    return SourceText(text, encoding, bom)


def read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except IsADirectoryError as exc:
        raise SourceError("is a directory") from exc
    except OSError as exc:
        raise SourceError(exc.strerror or str(exc)) from exc


def read_source(path: str) -> SourceText:
    return decode(read_bytes(path))


def write_source(path: str, source: SourceText, new_text: str) -> None:
    """Write fixed text back in the file's own encoding, atomically."""
    data = new_text.encode(source.encoding.replace("-sig", ""))
    if source.bom and not data.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tflsp-tmp")
    tmp.write_bytes(data)
    try:
        mode = target.stat().st_mode
        tmp.chmod(mode)
    except OSError:
        pass
    tmp.replace(target)
