"""Sphinx configuration of the English site; ``ja/conf.py`` reuses it for the Japanese site.

Build (see guide/building-docs.md)::

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W --keep-going -b html docs/ja docs/_build/html/ja

The pattern pages are generated at build time from the catalog by ``tflsp.sphinxext``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent
if (DOCS_DIR.parent / "tflsp" / "__init__.py").is_file():
    # A source checkout documents itself even when tflsp is not installed.
    sys.path.insert(0, str(DOCS_DIR.parent))

from tflsp import __version__  # noqa: E402

project = "tflsp"
author = "tflsp developers"
copyright = "tflsp developers"
release = version = __version__
language = "en"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "tflsp.sphinxext",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# "ja" is the Japanese site (its own source directory); _generated holds included fragments.
exclude_patterns = ["_build", "ja", "_generated", "README.md"]
templates_path = [str(DOCS_DIR / "_templates")]
# Error messages are quoted verbatim; curly quotes would break copying and searching them.
smartquotes = False

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = "tflsp"
html_static_path = [str(DOCS_DIR / "_static")]
html_css_files = ["tflsp.css"]
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/lang-switch.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}
html_copy_source = False
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": False}

# Internal links only: nothing is fetched from the network.
linkcheck_ignore = [r"^https?://"]

# The record `tflsp verify --catalog` writes; docs/verification.json in the repository.
tflsp_verification_record = str(DOCS_DIR / "verification.json")
tflsp_refresh_command = "tflsp verify --catalog --keras both --record"
