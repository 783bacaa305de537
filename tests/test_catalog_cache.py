"""The compiled copy of the catalog: used while current, never once a pattern changed."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tflsp.catalog import Catalog, load_catalog
from tflsp.catalog.cache import FILE_NAME, cached_catalog, stamp
from tflsp.catalog.loader import PATTERNS_DIR

# Three folders are enough to copy; TFL101 first, its message edited below.
SOME = sorted(p for p in PATTERNS_DIR.iterdir() if p.is_dir() and p.name.startswith("TFL"))[:3]


@pytest.fixture
def patterns(tmp_path: Path) -> Path:
    folder = tmp_path / "patterns"
    folder.mkdir()
    for source in SOME:
        shutil.copytree(source, folder / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def counting(directory: Path) -> tuple[Callable[[], Catalog], list[int]]:
    calls: list[int] = []

    def load() -> Catalog:
        calls.append(1)
        return load_catalog(directory)

    return load, calls


@pytest.fixture(autouse=True)
def may_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_the_copy_is_read_while_the_folders_are_unchanged(patterns: Path) -> None:
    load, calls = counting(patterns)
    first = cached_catalog(patterns, load)
    assert (patterns.parent / "__pycache__" / FILE_NAME).is_file()
    second = cached_catalog(patterns, load)
    assert calls == [1]  # the second came from the copy
    assert second == first == load_catalog(patterns)
    assert second is not first


def test_an_edited_pattern_is_loaded_again(patterns: Path) -> None:
    load, calls = counting(patterns)
    before = cached_catalog(patterns, load)
    meta = patterns / SOME[0].name / "pattern.toml"
    text = meta.read_text(encoding="utf-8")
    old = before[before.codes()[0]].messages["default"]["en"]
    # Same size, other text: only the modification time tells them apart.
    new = old[:-1] + ("X" if old[-1] != "X" else "Y")
    meta.write_text(text.replace(old, new, 1), encoding="utf-8")
    st = meta.stat()
    os.utime(meta, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    after = cached_catalog(patterns, load)
    assert calls == [1, 1]
    assert after[after.codes()[0]].messages["default"]["en"] == new


def test_a_new_pattern_folder_is_seen(patterns: Path) -> None:
    load, calls = counting(patterns)
    assert len(cached_catalog(patterns, load)) == len(SOME)
    extra = sorted(p for p in PATTERNS_DIR.iterdir() if p.name.startswith("TFL"))[len(SOME)]
    shutil.copytree(extra, patterns / extra.name, ignore=shutil.ignore_patterns("__pycache__"))
    assert len(cached_catalog(patterns, load)) == len(SOME) + 1
    assert calls == [1, 1]


def test_a_damaged_copy_falls_back_to_the_folders(patterns: Path) -> None:
    load, calls = counting(patterns)
    cached_catalog(patterns, load)
    (patterns.parent / "__pycache__" / FILE_NAME).write_bytes(b"not a pickle")
    assert cached_catalog(patterns, load) == load_catalog(patterns)
    assert calls == [1, 1]
    assert cached_catalog(patterns, load) == load_catalog(patterns)  # rewritten
    assert calls == [1, 1]


def test_nothing_is_written_when_python_may_not_write_bytecode(
    patterns: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    load, calls = counting(patterns)
    cached_catalog(patterns, load)
    cached_catalog(patterns, load)
    assert calls == [1, 1]
    assert not (patterns.parent / "__pycache__").exists()


def test_the_stamp_names_the_folder(patterns: Path, tmp_path: Path) -> None:
    # A copy of the package elsewhere must not read patterns that point at the old place.
    moved = tmp_path / "moved" / "patterns"
    shutil.copytree(patterns, moved, copy_function=shutil.copy2)
    assert stamp(moved) != stamp(patterns)
