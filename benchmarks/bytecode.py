"""Measure tflsp as it runs when installed: with compiled bytecode.

``pip install`` writes ``.pyc`` files for every module; an editable checkout gets them only
when Python may write them.  With ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines and CI
images) every start of a checkout would compile tflsp from source, which adds ~100 ms to
start-up and to the first analysis and says nothing about the tool.  The same goes for the
compiled copy of the catalog and the compiled code that attrs and dataclasses generate
(``tflsp/codecache.py``): the first run of an installed tflsp writes them, as Python writes
``.pyc`` files, unless told not to.
"""

from __future__ import annotations

import compileall
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in the checkout's own folder, so that its tflsp is the one imported.
_STORE = """
try:
    from tflsp.catalog.cache import store
    from tflsp.catalog.loader import PATTERNS_DIR, load_catalog
except ImportError:  # a tflsp from before the compiled catalog
    raise SystemExit(0)
store(PATTERNS_DIR, load_catalog(PATTERNS_DIR))
"""
# What `tflsp check` and `tflsp serve` import, each in a process of its own (they share
# modules, which each imports in its own scopes).
_GENERATED = """
import sys
try:
    import tflsp.codecache as codecache
except ImportError:  # a tflsp from before the compiled generated code
    raise SystemExit(0)
codecache.force_write = True
if sys.argv[1] == "check":
    from tflsp.cli.main import build_parser
    build_parser("check")
    from tflsp.cli.check import _Checker
    from tflsp.settings import Settings
    _Checker(Settings(), False, False, False)
else:
    from tflsp.server import create_server
    create_server().docs
"""


def ensure_bytecode(checkout: Path = ROOT) -> None:
    # py_compile writes the files even when sys.dont_write_bytecode is set.
    compileall.compile_dir(checkout / "tflsp", quiet=1)
    subprocess.run([sys.executable, "-c", _STORE], cwd=checkout, check=True)
    for command in ("check", "serve"):
        subprocess.run([sys.executable, "-c", _GENERATED, command], cwd=checkout, check=True)
