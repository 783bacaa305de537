"""The persistent cache of ``tflsp check``: unchanged files are not analysed again.

Like ruff's ``.ruff_cache``, a folder (``.tflsp_cache`` in the project root by default) holds
what earlier runs found::

    .tflsp_cache/
      CACHEDIR.TAG  .gitignore          so backups and git leave it alone
      1-0.1.0/                          cache format - tflsp version
        <analysis fingerprint>.json     one store per analyzer and catalog

The **analysis fingerprint** names the code that computes findings: the version, the size and
modification time of the modules that decide findings (so a checkout that changes a detector
never reads findings of the old code) and of the catalog's ``pattern.toml`` files.  Inside a
store, an entry's **key** is a digest of the file's bytes, the rule set resolved for that file
(every field of its :class:`~tflsp.analysis.engine.LintConfig`: enabled codes after per-file
ignores, severities, target Keras version, the ``TF_USE_LEGACY_KERAS`` environment, the size
limit), whether it is a notebook, and its **dependency fingerprint**
(:func:`dependency_fingerprint`).  Entries hold findings only, in a form that does not depend
on the output language or format: messages are rendered from the catalog at output time.

Only the main process reads and writes a store; ``--jobs`` workers return what they found.  A
store is replaced atomically, so a concurrent run or an interrupted one leaves a whole file; a
store that cannot be read or decoded (corrupt, foreign, another format) is ignored and
rebuilt.  Stores stay bounded: an entry whose file was checked again with another content (and
the same rules) is dropped, as is any entry unused for :data:`MAX_AGE`; only the
:data:`KEEP_STORES` most recently used stores are kept.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tflsp
from tflsp.analysis.diagnostics import Diagnostic, Edit, Fix
from tflsp.analysis.engine import LintConfig
from tflsp.analysis.workspace import Workspace
from tflsp.catalog.loader import PATTERNS_DIR
from tflsp.cli.formats import CellEdit, CellLocation, FileReport
from tflsp.cli.notebooks import is_notebook

FORMAT = 1
ENV_VAR = "TFLSP_CACHE_DIR"
MAX_AGE = 30 * 24 * 3600  # seconds an unused entry is kept
KEEP_STORES = 4  # stores kept in one cache folder (older tflsp versions, edited checkouts)

_PACKAGE = Path(tflsp.__file__).resolve().parent
# Subpackages whose code cannot change what ``tflsp check`` finds.
_NOT_FINDINGS = ("server", "verify", "sphinxext")
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by tflsp.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


def analysis_fingerprint() -> str:
    """A digest of the tflsp version, the code that computes findings and the catalog.

    Files count by size and modification time, as Python's own bytecode cache does: reading
    them all would cost a warm run more than everything else it does but reading the files.
    """
    digest = hashlib.sha256(f"{FORMAT}\0{tflsp.__version__}\0".encode())
    for name, size, mtime in sorted(_fingerprinted_files()):
        digest.update(f"{name}\0{size}\0{mtime}\0".encode())
    return digest.hexdigest()[:24]


def _fingerprinted_files() -> list[tuple[str, int, int]]:
    """(name, size, mtime) of the modules and data files that decide findings and of each
    pattern.toml."""
    out: list[tuple[str, int, int]] = []
    package = str(_PACKAGE)
    skip = {os.path.join(package, "catalog", "patterns")}  # examples and prose
    skip.update(os.path.join(package, name) for name in _NOT_FINDINGS)
    stack = [package]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir():
                    if entry.path not in skip and entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith((".py", ".json")):  # code, and data such as apidata
                    stat = entry.stat()
                    name = os.path.relpath(entry.path, package)
                    out.append((name, stat.st_size, stat.st_mtime_ns))
    # The catalog's data: codes, severities, Keras versions, default rules.
    with os.scandir(PATTERNS_DIR) as folders:
        for folder_entry in folders:
            toml = os.path.join(folder_entry.path, "pattern.toml")
            with contextlib.suppress(OSError):
                stat = os.stat(toml)
                out.append((f"patterns/{folder_entry.name}", stat.st_size, stat.st_mtime_ns))
    return out


def dependency_fingerprint(path: str) -> str:
    """What the findings of ``path`` read from other files: a digest of the content hashes of
    the workspace files it imports (:mod:`tflsp.analysis.workspace`), "" when none.

    It is part of every entry's key, so an edit of an imported file invalidates the entry of
    each file importing it.
    """
    if path == "-" or is_notebook(path):
        return ""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""
    return shared_workspace().dependency_digest(Path(path), text)


_WORKSPACE: Workspace | None = None


def shared_workspace() -> Workspace:
    """The workspace summaries of this process: files of one run share them."""
    global _WORKSPACE
    if _WORKSPACE is None:
        _WORKSPACE = Workspace(remember_paths=True)
    return _WORKSPACE


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resolve_directory(
    flag: str | None, setting: str, settings_root: Path | None, start: Path
) -> Path:
    """Where the cache lives: ``--cache-dir``, else ``TFLSP_CACHE_DIR``, else the ``cache-dir``
    setting relative to the project root.

    The project root is the folder of the ``pyproject.toml`` the settings came from, else the
    nearest folder above ``start`` that has a ``pyproject.toml``, else the current directory.
    """
    if flag:
        return Path(flag)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    root = settings_root or _project_root(start) or Path.cwd()
    return root / setting


def _project_root(start: Path) -> Path | None:
    current = start if start.is_dir() else start.parent
    for folder in (current, *current.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return None


def config_fingerprint(config: LintConfig) -> str:
    """A digest of every field of a resolved rule set (sets sorted: stable across processes)."""
    fields = {f.name: _stable(getattr(config, f.name)) for f in dataclasses.fields(config)}
    text = json.dumps(fields, sort_keys=True, default=repr)  # repr: a field of a new kind
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _stable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(_stable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_stable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _stable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class EntryKey:
    key: str
    path: str  # absolute: an entry replaced by a newer content of the same file is dropped
    rules: str  # the rule set's fingerprint


class CheckCache:
    """The entries of one store, read once at the start of a run and written once at the end."""

    def __init__(self, directory: Path, fingerprint: str | None = None) -> None:
        self.directory = directory
        name = f"{fingerprint or analysis_fingerprint()}.json"
        self.store = directory / f"{FORMAT}-{tflsp.__version__}" / name
        self._entries: dict[str, dict[str, Any]] = self._read()
        self._used: dict[str, dict[str, Any]] = {}
        self._checked: set[tuple[str, str]] = set()  # (absolute path, rules) seen this run
        self._configs: dict[LintConfig, str] = {}
        self.now = int(time.time())

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.store.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def entry_key(self, path: str, digest: str, config: LintConfig) -> EntryKey:
        """The key of ``path`` whose bytes have ``digest``, checked with ``config``."""
        rules = self._configs.get(config)
        if rules is None:
            rules = self._configs[config] = config_fingerprint(config)
        kind = "notebook" if is_notebook(path) else "module"
        parts = (digest, rules, kind, dependency_fingerprint(path))
        key = hashlib.sha256("\0".join(parts).encode()).hexdigest()
        return EntryKey(key, os.path.abspath(path), rules)

    def get(self, key: EntryKey, path: str) -> FileReport | None:
        """The cached report of the file, under the name ``path``; None when not cached."""
        self._checked.add((key.path, key.rules))
        entry = self._entries.get(key.key)
        if not isinstance(entry, dict):
            return None
        try:
            report = decode_report(path, entry["report"])
        except (KeyError, TypeError, ValueError):
            return None  # a damaged entry: analyse the file again
        self._used[key.key] = {**entry, "seen": self.now}
        return report

    def put(self, key: EntryKey, report: FileReport) -> None:
        self._checked.add((key.path, key.rules))
        self._used[key.key] = {
            "path": key.path,
            "rules": key.rules,
            "seen": self.now,
            "report": encode_report(report),
        }

    def save(self) -> str | None:
        """Write the store; return why it could not be written, or None."""
        if not self._used and not self._entries:
            return None
        kept: dict[str, dict[str, Any]] = {}
        for key, entry in self._entries.items():
            if key in self._used or not isinstance(entry, dict):
                continue
            seen = entry.get("seen")
            superseded = (entry.get("path"), entry.get("rules")) in self._checked
            if not superseded and isinstance(seen, int) and self.now - seen < MAX_AGE:
                kept[key] = entry
        kept.update(self._used)
        try:
            self._prepare()
            _write_atomic(self.store, json.dumps({"format": FORMAT, "entries": kept}))
            self._prune_stores()
        except OSError as exc:
            return f"cannot write the cache in {self.directory}: {exc.strerror or exc}"
        return None

    def _prepare(self) -> None:
        self.store.parent.mkdir(parents=True, exist_ok=True)
        tag = self.directory / "CACHEDIR.TAG"
        if not tag.exists():
            _write_atomic(tag, _TAG)
            _write_atomic(self.directory / ".gitignore", "# Created by tflsp.\n*\n")

    def _prune_stores(self) -> None:
        stores = []
        with contextlib.suppress(OSError):
            for folder in self.directory.iterdir():
                if folder.is_dir() and folder.name[:1].isdigit():
                    for store in folder.glob("*.json"):
                        stores.append((store.stat().st_mtime, store))
        stores.sort(reverse=True)
        for _, store in stores[KEEP_STORES:]:
            if store != self.store:
                with contextlib.suppress(OSError):
                    store.unlink()
                with contextlib.suppress(OSError):
                    store.parent.rmdir()  # only when it is empty


def _write_atomic(target: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a cache is readable like ruff's
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -- what an entry holds: a FileReport without its path ------------------------------------------
def encode_report(report: FileReport) -> dict[str, Any]:
    out: dict[str, Any] = {"diagnostics": [_encode_diagnostic(d) for d in report.diagnostics]}
    if report.notice is not None:
        out["notice"] = report.notice
    if report.locations is not None:
        out["locations"] = [_encode_location(loc) for loc in report.locations]
    return out


def decode_report(path: str, data: Mapping[str, Any]) -> FileReport:
    diagnostics = [_decode_diagnostic(d) for d in data["diagnostics"]]
    notice = data.get("notice")
    locations = data.get("locations")
    report = FileReport(path, diagnostics, notice=str(notice) if notice is not None else None)
    if locations is not None:
        report.locations = [_decode_location(loc) for loc in locations]
        if len(report.locations) != len(diagnostics):
            raise ValueError("one location per diagnostic")
    return report


def _encode_edit(edit: Edit) -> list[Any]:
    return [edit.line, edit.column, edit.end_line, edit.end_column, edit.text]


def _decode_edit(data: list[Any]) -> Edit:
    line, column, end_line, end_column, text = data
    return Edit(int(line), int(column), int(end_line), int(end_column), str(text))


def _encode_diagnostic(d: Diagnostic) -> list[Any]:
    fix = None
    if d.fix is not None:
        fix = [[_encode_edit(e) for e in d.fix.edits], d.fix.safe, dict(d.fix.args)]
    return [
        d.code, d.line, d.column, d.end_line, d.end_column, d.severity,
        d.message_id, dict(d.args), fix, d.raw_message,
    ]  # fmt: skip


def _decode_diagnostic(data: list[Any]) -> Diagnostic:
    code, line, column, end_line, end_column, severity, message_id, args, fix, raw = data
    decoded_fix = None
    if fix is not None:
        edits, safe, fix_args = fix
        decoded_fix = Fix(tuple(_decode_edit(e) for e in edits), bool(safe), _strings(fix_args))
    return Diagnostic(
        str(code),
        int(line),
        int(column),
        int(end_line),
        int(end_column),
        str(severity),
        str(message_id),
        _strings(args),
        decoded_fix,
        None if raw is None else str(raw),
    )


def _strings(data: Any) -> dict[str, str]:
    if not isinstance(data, dict):
        raise TypeError("expected a table")
    return {str(k): str(v) for k, v in data.items()}


def _encode_location(loc: CellLocation) -> list[Any]:
    return [
        loc.cell, loc.line, loc.column, loc.end_line, loc.end_column,
        list(loc.file_region) if loc.file_region is not None else None,
        [[e.cell, _encode_edit(e.edit)] for e in loc.edits],
    ]  # fmt: skip


def _decode_location(data: list[Any]) -> CellLocation:
    cell, line, column, end_line, end_column, region, edits = data
    file_region = None
    if region is not None:
        a, b, c, d = (int(v) for v in region)
        file_region = (a, b, c, d)
    return CellLocation(
        int(cell),
        int(line),
        int(column),
        int(end_line),
        int(end_column),
        file_region,
        tuple(CellEdit(int(e[0]), _decode_edit(e[1])) for e in edits),
    )
