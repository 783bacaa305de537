"""Measure tflsp as it runs when installed: with compiled bytecode.

``pip install`` writes ``.pyc`` files for every module; an editable checkout gets them only
when Python may write them.  With ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines and CI
images) every start of a checkout would compile tflsp from source, which adds ~100 ms to
start-up and to the first analysis and says nothing about the tool.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tflsp"


def ensure_bytecode() -> None:
    # py_compile writes the files even when sys.dont_write_bytecode is set.
    compileall.compile_dir(PACKAGE, quiet=1)
