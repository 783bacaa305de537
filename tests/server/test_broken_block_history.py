"""A half-typed function never inherits the facts of another one (lsp-audit bug 5), over LSP.

The analyzer lets a block with a syntax error keep the facts of its own last parsable version
(so a half-typed line does not make the rest of the module lose its diagnostics); the fix of
issue 12 item 5 stopped it from taking those of a different function that started on the same
line with the same decorator.  This is the audit's minimised reproducer through the server.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.raw import RawServer

pytestmark = pytest.mark.timeout(120)

TEXT = (
    "import tensorflow as tf\n"
    "def helper(x):\n"
    "    print(x)\n"
    "@tf.function\n"
    "def f(x):\n"
    "    return helper(x)\n"
    "\n"
    "@tf.function\n"
    "def g(x):\n"
    "    return x +\n"
)


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize({})
    yield raw
    assert raw.shutdown() == 0, raw.stderr_tail()


def test_deleting_a_function_does_not_lend_its_facts_to_the_next(server: RawServer) -> None:
    uri = "file:///history.py"
    server.open(uri, TEXT)
    first = server.diagnostics(uri, 1)
    assert {d["code"] for d in first} == {"TFL101", "TFL000"}  # helper is called by f
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": 3, "character": 0},
                        "end": {"line": 7, "character": 0},
                    },
                    "text": "",
                }
            ],
        },
    )
    after = server.diagnostics(uri, 2)
    # g now starts where f did; nothing calls helper from a graph any more.
    assert [(d["code"], d["range"]["start"]["line"]) for d in after] == [("TFL000", 5)]
