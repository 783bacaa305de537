"""The language server spec that jupyter-lsp (jupyterlab-lsp's server extension) discovers.

jupyter-lsp loads every ``jupyter_lsp_spec_v1`` entry point and calls it with its manager; the
answer maps a server key to a spec (format version 2 of jupyter-lsp's ``schema.json``).  tflsp
is started with the interpreter that runs Jupyter, which is the one tflsp is installed in
(that is how the entry point was found), so no PATH lookup can pick another copy.

Nothing here imports jupyter-lsp: the module is plain data and safe to import anywhere.
"""

from __future__ import annotations

import sys
from typing import Any

from tflsp import __version__
from tflsp.settings import DEFAULT_DOCS_URL

SERVER_KEY = "tflsp"


def spec(manager: Any = None) -> dict[str, dict[str, Any]]:
    """The ``{key: spec}`` mapping jupyter-lsp expects from a spec finder."""
    return {
        SERVER_KEY: {
            "version": 2,
            "argv": [sys.executable, "-m", "tflsp", "serve", "--stdio"],
            "languages": ["python"],
            "mime_types": ["text/python", "text/x-ipython"],
            "display_name": f"tflsp {__version__} (TensorFlow/Keras pitfalls)",
            "urls": {"home": DEFAULT_DOCS_URL},
            "install": {"pip": "pip install tflsp"},
            # tflsp analyses the text it is sent; jupyter-lsp need not write the notebook's
            # virtual document to .virtual_documents/ for it.
            "requires_documents_on_disk": False,
            "env": {"PYTHONUNBUFFERED": "1"},
        }
    }
