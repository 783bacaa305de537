"""Sphinx configuration of the Japanese site: the English configuration with language = "ja".

Build: ``sphinx-build -W --keep-going -b html docs/ja docs/_build/html/ja`` (the output sits
inside the English site so that ``<base>ja/patterns/<CODE>-<name>.html`` resolves).
"""

from __future__ import annotations

import runpy
from pathlib import Path

_shared = runpy.run_path(str(Path(__file__).resolve().parent.parent / "conf.py"))
globals().update({k: v for k, v in _shared.items() if not k.startswith("__")})

language = "ja"
html_title = "tflsp（日本語）"
html_search_language = "ja"
