"""Measure tflsp as it runs when installed: with compiled bytecode.

``pip install`` writes ``.pyc`` files for every module; an editable checkout gets them only
when Python may write them.  With ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines and CI
images) every start of a checkout would compile tflsp from source, which adds ~100 ms to
start-up and to the first analysis and says nothing about the tool.  The same goes for the
compiled copy of the catalog.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tflsp"


def ensure_bytecode() -> None:
    # py_compile writes the files even when sys.dont_write_bytecode is set.
    compileall.compile_dir(PACKAGE, quiet=1)
    # The compiled catalog too (``tflsp/catalog/cache.py``): the first run of an installed
    # tflsp writes it, as Python writes ``.pyc`` files, unless told not to.
    try:
        from tflsp.catalog.cache import store
        from tflsp.catalog.loader import PATTERNS_DIR, load_catalog
    except ImportError:  # a tflsp from before the compiled catalog
        return
    store(PATTERNS_DIR, load_catalog(PATTERNS_DIR))
