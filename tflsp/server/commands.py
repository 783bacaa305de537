"""Names the server and its clients share: commands and code action kinds.

Kept apart from the feature modules so that registering handlers imports nothing heavy.
"""

from __future__ import annotations

# The settings section clients send (``{"tflsp": {...}}``) and that the server asks for.
SECTION = "tflsp"

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.tflsp"

OPEN_DOCS = "tflsp.openDocs"
VERIFY_CLASS = "tflsp.verifyClass"
VERIFY_FUNCTION = "tflsp.verifyFunction"
VERIFY_CATALOG = "tflsp.verifyCatalog"
RESTART_VERIFIER = "tflsp.restartVerifier"

COMMANDS = (VERIFY_CLASS, VERIFY_FUNCTION, VERIFY_CATALOG, RESTART_VERIFIER, OPEN_DOCS)
