"""Notebook cell structure changes with a push client (lsp-audit bugs 7 and 8): a cell that
leaves the module gets its diagnostics cleared; a cell re-inserted without ``didOpen`` (its text
document was never closed) keeps its text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.raw import RawServer

pytestmark = pytest.mark.timeout(120)

IMPORT = "import tensorflow as tf\n"
STEP = "@tf.function\ndef f(x):\n    print(x)\n    return x\n"
CODE, MARKUP = 2, 1


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize({"notebookDocument": {"synchronization": {}}})
    yield raw
    assert raw.shutdown() == 0, raw.stderr_tail()


def open_notebook(server: RawServer, name: str) -> tuple[str, str, str]:
    notebook = f"file:///{name}.ipynb"
    c1, c2 = f"{notebook}#c1", f"{notebook}#c2"
    server.notify(
        "notebookDocument/didOpen",
        {
            "notebookDocument": {
                "uri": notebook,
                "notebookType": "jupyter-notebook",
                "version": 1,
                "cells": [{"kind": CODE, "document": c1}, {"kind": CODE, "document": c2}],
            },
            "cellTextDocuments": [
                {"uri": c1, "languageId": "python", "version": 1, "text": IMPORT},
                {"uri": c2, "languageId": "python", "version": 1, "text": STEP},
            ],
        },
    )
    assert codes(server.diagnostics(c2, 1)) == ["TFL101"]
    return notebook, c1, c2


def codes(diagnostics: list[dict[str, Any]]) -> list[str]:
    return [d["code"] for d in diagnostics]


def change(server: RawServer, notebook: str, version: int, cells: dict[str, Any]) -> None:
    server.notify(
        "notebookDocument/didChange",
        {
            "notebookDocument": {"uri": notebook, "version": version},
            "change": {"cells": cells},
        },
    )


def cleared(server: RawServer, uri: str) -> list[Any]:
    message = server.wait_notification(
        "textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=10
    )
    return message["params"]["diagnostics"]  # type: ignore[no-any-return]


def test_a_deleted_cell_is_cleared(server: RawServer) -> None:
    notebook, _, c2 = open_notebook(server, "deleted")
    change(
        server,
        notebook,
        2,
        {"structure": {"array": {"start": 1, "deleteCount": 1}, "didClose": [{"uri": c2}]}},
    )
    assert cleared(server, c2) == []


def test_a_cell_turned_into_markdown_is_cleared(server: RawServer) -> None:
    notebook, _, c2 = open_notebook(server, "markdown")
    change(server, notebook, 2, {"data": [{"kind": MARKUP, "document": c2}]})
    assert cleared(server, c2) == []


def test_a_cell_moved_in_two_notifications_keeps_its_text(server: RawServer) -> None:
    notebook, c1, c2 = open_notebook(server, "moved")
    # The import cell goes to the end: removed, then inserted, without didClose or didOpen.
    change(server, notebook, 2, {"structure": {"array": {"start": 0, "deleteCount": 1}}})
    change(
        server,
        notebook,
        3,
        {
            "structure": {
                "array": {"start": 1, "deleteCount": 0, "cells": [{"kind": CODE, "document": c1}]}
            }
        },
    )
    # The import cell is back with its text, so f is a tf.function again (its decorator
    # resolves when the cell runs); with an empty cell it was not.
    message = server.wait_notification(
        "textDocument/publishDiagnostics",
        lambda p: p["uri"] == c2 and codes(p["diagnostics"]) == ["TFL101"],
        timeout=10,
    )
    assert message["params"]["diagnostics"][0]["range"]["start"] == {"line": 2, "character": 4}
