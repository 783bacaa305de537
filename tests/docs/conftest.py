"""Fixtures for the documentation tests: real Sphinx builds in temporary directories.

The whole ``docs/`` tree is copied (without generated files and build output) so that the
tests never write into the checkout.  Each language is built once per session, in parallel,
with ``-W --keep-going`` and with a ``tensorflow`` stand-in on ``PYTHONPATH`` that records
any attempt to import it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tflsp.sphinxext import snapshot

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
GENERATED = ("patterns", "_generated")
FORBIDDEN_MODULES = ("tensorflow", "tf_keras", "keras")
BUILD_TIMEOUT = 600


@dataclass
class Build:
    lang: str
    srcdir: Path
    outdir: Path
    returncode: int
    output: str  # stdout + stderr of sphinx-build

    @property
    def warnings(self) -> list[str]:
        return [line for line in self.output.splitlines() if "WARNING" in line or "ERROR" in line]


@dataclass
class Sites:
    root: Path  # the copied docs/ tree
    html: Path  # the English site; the Japanese one is html / "ja"
    builds: dict[str, Build]
    import_log: Path
    generated: dict[str, Mapping[str, bytes]]  # what the first build generated, per language


def copy_docs(target: Path) -> Path:
    """Copy docs/ without build output and without what the generator writes."""

    def ignore(directory: str, names: list[str]) -> set[str]:
        relative = Path(directory).relative_to(DOCS).as_posix()
        skipped = {"_build"} if relative == "." else set()
        if relative in (".", "ja"):
            skipped |= {name for name in names if name in GENERATED}
        return skipped

    shutil.copytree(DOCS, target, ignore=ignore)
    return target


def import_guard(directory: Path, log: Path) -> dict[str, str]:
    """Stand-in packages that log and refuse the import; returns the environment to use."""
    for name in FORBIDDEN_MODULES:
        package = directory / name
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text(
            "import os, traceback\n"
            "with open(os.environ['TFLSP_IMPORT_LOG'], 'a') as log:\n"
            f"    log.write({name!r} + ' imported from:\\n' + ''.join(traceback.format_stack()))\n"
            f"raise ImportError({name!r} + ' must not be imported while building the docs')\n",
            encoding="utf-8",
        )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(directory), env.get("PYTHONPATH")]))
    env["TFLSP_IMPORT_LOG"] = str(log)
    return env


def sphinx_command(builder: str, srcdir: Path, outdir: Path, doctrees: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        builder,
        "-d",
        str(doctrees),
        str(srcdir),
        str(outdir),
    ]


def run_parallel(
    commands: dict[str, list[str]], env: dict[str, str] | None = None
) -> dict[str, tuple[int, str]]:
    running = {
        key: subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        for key, command in commands.items()
    }
    results = {}
    for key, process in running.items():
        output, _ = process.communicate(timeout=BUILD_TIMEOUT)
        results[key] = (process.returncode, output)
    return results


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Sites:
    base = tmp_path_factory.mktemp("docs-build")
    root = copy_docs(base / "docs")
    html = base / "html"
    log = base / "imports.log"
    env = import_guard(base / "guard", log)
    sources = {"en": (root, html), "ja": (root / "ja", html / "ja")}
    commands = {
        lang: sphinx_command("html", src, out, base / "doctrees" / lang)
        for lang, (src, out) in sources.items()
    }
    results = run_parallel(commands, env)
    builds = {
        lang: Build(lang, sources[lang][0], sources[lang][1], *results[lang]) for lang in sources
    }
    generated = {lang: snapshot(build.srcdir) for lang, build in builds.items()}
    return Sites(root=root, html=html, builds=builds, import_log=log, generated=generated)
