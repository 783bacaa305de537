"""Build backend: setuptools, plus the HTML documentation inside release wheels.

The links tflsp shows (diagnostics, hovers, "open the documentation", JSON and SARIF) go to
the documentation installed with it until a site is published (``tflsp/cli/links.py``), so a
release wheel carries the English and the Japanese site in ``tflsp/data/docs/html``.

Only a wheel built from an sdist (``python -m build`` builds the sdist first; an sdist has
``PKG-INFO``) builds them: Sphinx and the theme are then added to what the build installs.
A wheel built straight from a clone (``pip install .``, ``pip install git+…``, a pre-commit
hook environment) and an editable install build nothing and need nothing new; their links go
to ``docs/_build/html`` of a clone once built, else to the explanation files of the catalog.
``TFLSP_WHEEL_DOCS=1`` builds the documentation into any wheel, ``TFLSP_WHEEL_DOCS=0`` into
none.  ``pyproject.toml`` names this module (``backend-path``) and its ``BuildPy``
(``[tool.setuptools.cmdclass]``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook of the setuptools backend
from setuptools.command.build_py import build_py

DOCS_REQUIRES = [
    "sphinx>=9,<10",
    "furo>=2024.8.6",
    "myst-parser>=4",
    "tomli>=2.0; python_version < '3.11'",  # tflsp.settings documents itself
]
# Where the site goes inside the package (tflsp.cli.links.PACKAGED_SITE).
SITE = Path("tflsp", "data", "docs", "html")
BUILD_TIMEOUT = 900


def builds_docs(root: Path) -> bool:
    """Does a wheel built from ``root`` carry the documentation? (See the module docstring.)"""
    setting = os.environ.get("TFLSP_WHEEL_DOCS")
    if setting == "0" or not (root / "docs" / "conf.py").is_file():
        return False
    return setting == "1" or (root / "PKG-INFO").is_file()


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return [*requires, *DOCS_REQUIRES] if builds_docs(Path.cwd()) else requires


class BuildPy(build_py):
    """``build_py`` that also builds the HTML documentation into the package (wheels only)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode and builds_docs(Path.cwd()):
            build_docs(Path.cwd(), Path(self.build_lib) / SITE)


def build_docs(root: Path, out: Path) -> None:
    """Build both sites from ``root/docs`` into ``out`` (the Japanese one in ``out/ja``).

    The sources are copied first: the page generator writes into its source directory, and a
    build must not change the checkout it runs in.  Both languages build at once.
    """
    with tempfile.TemporaryDirectory(prefix="tflsp-docs-") as tmp:
        docs = Path(tmp, "docs")
        shutil.copytree(
            root / "docs", docs, ignore=shutil.ignore_patterns("_build", "_generated", "patterns")
        )
        shutil.rmtree(out, ignore_errors=True)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
        }
        runs = []
        for lang, source, target in (("en", docs, out), ("ja", docs / "ja", out / "ja")):
            log = Path(tmp, f"sphinx-{lang}.log").open("w+")  # noqa: SIM115 - read back below
            command = [
                sys.executable,
                "-m",
                "sphinx",
                "-q",
                "-b",
                "html",
                "-d",
                str(Path(tmp, f"doctrees-{lang}")),  # not in the wheel
                str(source),
                str(target),
            ]
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
            runs.append((lang, process, log))
        failed = []
        for lang, process, log in runs:
            code = process.wait(timeout=BUILD_TIMEOUT)
            log.seek(0)
            output = log.read()
            log.close()
            if code != 0 or not (out / ("ja" if lang == "ja" else "") / "index.html").is_file():
                failed.append(f"{lang} (exit {code}):\n{output[-3000:]}")
        if failed:
            raise RuntimeError(
                "building the documentation for the wheel failed: " + "\n".join(failed)
            )
