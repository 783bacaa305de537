"""Small catalogs and Sphinx projects for testing the generator in isolation."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tflsp.catalog import Catalog, CatalogError, load_catalog, load_pattern
from tflsp.catalog.loader import PATTERNS_DIR

FIXABLE = "TFL101"  # the first pattern of the catalog; its fix turns print() into tf.print()


def copy_patterns(target: Path, count: int = 2, include: tuple[str, ...] = (FIXABLE,)) -> Path:
    """Copy ``include`` and then other complete patterns of the bundled catalog to ``target``.

    Other contributors add patterns concurrently; folders that do not load yet are skipped.
    """
    target.mkdir(parents=True, exist_ok=True)
    chosen: list[Path] = []
    folders = sorted(p for p in PATTERNS_DIR.iterdir() if p.is_dir())
    for folder in sorted(folders, key=lambda f: f.name.split("-")[0] not in include):
        if len(chosen) >= count:
            break
        try:
            load_pattern(folder)
        except CatalogError:
            continue
        chosen.append(folder)
    for folder in chosen:
        shutil.copytree(folder, target / folder.name)
    return target


def load(directory: Path) -> Catalog:
    return load_catalog(directory)


def record_for(
    catalog: Catalog, *, passed: bool = True, skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A verification record in the shape the loader reads, for every pattern and Keras."""
    results = []
    for pattern in catalog:
        for variant in pattern.keras:
            if f"{pattern.code}:{variant}" in skip:
                continue
            results.append(
                {
                    "code": pattern.code,
                    "keras": variant,
                    "keras_version": "3.15.1" if variant == "keras3" else "2.21.0",
                    "passed": passed,
                    "bad": {"passed": passed, "observed": {"stdout": ["observed by the test"]}},
                    "good": {"passed": True, "observed": {"stdout": ["fine"]}},
                }
            )
    return {"tensorflow": "2.21.0", "timestamp": "2026-01-01T00:00:00Z", "results": results}


def mini_project(
    root: Path, catalog_dir: Path, record: dict[str, Any] | None, language: str = "en"
) -> Path:
    """A Sphinx project that contains only the generated pages."""
    src = root / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(
        "extensions = ['myst_parser', 'tflsp.sphinxext']\n"
        f"language = {language!r}\n"
        f"tflsp_catalog_dir = {str(catalog_dir)!r}\n"
        "tflsp_verification_record = 'verification.json'\n"
        "exclude_patterns = ['_build', '_generated']\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text(
        "# Test\n\n```{toctree}\npatterns/index\npatterns/symptoms\n```\n", encoding="utf-8"
    )
    if record is not None:
        (src / "verification.json").write_text(json.dumps(record), encoding="utf-8")
    return src


def build(src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(src),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
