"""Write the generated sources of one site (one language) into its Sphinx source directory.

Sphinx decides what to re-read from file modification times, so a file is written only when
its content changes, and files this run did not produce are removed (a renamed pattern must
not leave an orphan page behind).  Only the directories in :data:`OWNED_DIRS` are touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tflsp.catalog import Catalog
from tflsp.sphinxext.indexes import (
    render_keras3_notes,
    render_pattern_index,
    render_settings,
    render_symptoms,
)
from tflsp.sphinxext.markdown import join_cjk_lines
from tflsp.sphinxext.observed import Problem
from tflsp.sphinxext.pages import PATTERNS_DIR, PageContext, docname, render_pattern_page
from tflsp.sphinxext.record import VerificationRecord

FRAGMENTS_DIR = "_generated"
OWNED_DIRS = (PATTERNS_DIR, FRAGMENTS_DIR)


@dataclass
class Generated:
    files: dict[str, str]  # srcdir-relative POSIX path -> content
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    problems: dict[str, list[Problem]] = field(default_factory=dict)  # docname -> problems


def render_site(
    catalog: Catalog,
    lang: str,
    srcdir: Path,
    record: VerificationRecord | None,
    record_name: str,
    refresh_command: str,
) -> Generated:
    """Every generated source of one language, in memory (nothing is written)."""
    ctx = PageContext(catalog, lang, srcdir, record, record_name, refresh_command)
    files: dict[str, str] = {}
    for pattern in catalog:
        files[f"{docname(pattern)}.md"] = render_pattern_page(pattern, ctx)
    files[f"{PATTERNS_DIR}/index.md"] = render_pattern_index(catalog, lang)
    files[f"{PATTERNS_DIR}/symptoms.md"] = render_symptoms(catalog, lang)
    files[f"{FRAGMENTS_DIR}/settings.md"] = render_settings(lang)
    files[f"{FRAGMENTS_DIR}/keras3.md"] = render_keras3_notes(catalog, lang)
    if lang == "ja":
        files = {path: join_cjk_lines(content) for path, content in files.items()}
    problems = {docname(catalog[code]): found for code, found in ctx.problems.items() if found}
    return Generated(files=files, problems=problems)


def write_site(srcdir: Path, generated: Generated) -> Generated:
    """Write changed files, delete stale ones; record what happened in ``generated``."""
    for relative, content in sorted(generated.files.items()):
        if _write_if_changed(srcdir / relative, content):
            generated.written.append(relative)
    wanted = set(generated.files)
    for owned in OWNED_DIRS:
        root = srcdir / owned
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*"), reverse=True):
            relative = path.relative_to(srcdir).as_posix()
            if path.is_file() and relative not in wanted:
                path.unlink()
                generated.removed.append(relative)
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return generated


def _write_if_changed(path: Path, content: str) -> bool:
    data = content.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write beside and rename, so a concurrent reader never sees half a page.
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def snapshot(srcdir: Path) -> Mapping[str, bytes]:
    """The generated files currently on disk (for tests and for comparing builds)."""
    out: dict[str, bytes] = {}
    for owned in OWNED_DIRS:
        root = srcdir / owned
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    out[path.relative_to(srcdir).as_posix()] = path.read_bytes()
    return out
