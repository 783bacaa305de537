"""Push diagnostics from the real server: open, edit, stale versions, syntax errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import CATALOG, docs_link
from tests.server.lsp import (
    change,
    config,
    diagnostics_for,
    open_document,
    published,
    push_capabilities,
    replace_all,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        return x * 2


    def helper(values):
        return sum(values)
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("diagnostics")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=push_capabilities(), root_uri=root.as_uri(), locale="en"
        )
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def uri_in(client: LanguageClient, name: str) -> str:
    root: Path = client.root  # type: ignore[attr-defined]
    return (root / name).as_uri()


async def test_open_publishes_catalog_diagnostic(client: LanguageClient) -> None:
    uri = uri_in(client, "open.py")
    diagnostics = await open_document(client, uri, SOURCE)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("TFL101", 5)]
    diag = diagnostics[0]
    pattern = CATALOG["TFL101"]
    assert diag.source == "tflsp"
    assert diag.severity == types.DiagnosticSeverity.Warning
    assert pattern.severity == "warning"
    assert diag.message == pattern.message("default", "en", {"function": "step"})
    assert diag.code_description is not None
    assert diag.code_description.href == docs_link("TFL101")
    # The whole call is flagged.
    line = SOURCE.split("\n")[5]
    assert (diag.range.start.character, diag.range.end.character) == (
        line.index("print"),
        len(line),
    )
    fix = diag.data["fix"]
    assert fix["safe"] is True
    assert fix["edits"] == [
        {
            "range": {
                "start": {"line": 5, "character": 4},
                "end": {"line": 5, "character": 9},
            },
            "newText": "tf.print",
        }
    ]


async def test_edit_updates_and_clears(client: LanguageClient) -> None:
    uri = uri_in(client, "edit.py")
    await open_document(client, uri, SOURCE)
    # A second print in the same function: two findings.
    change(client, uri, 2, (6, 0), (6, 0), '    print("again")\n')
    diagnostics = await diagnostics_for(client, uri, 2)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [
        ("TFL101", 5),
        ("TFL101", 6),
    ]
    # Removing the decorator makes step() eager: nothing left to report.
    change(client, uri, 3, (3, 0), (4, 0), "")
    assert await diagnostics_for(client, uri, 3) == []


async def test_syntax_error_keeps_other_blocks(client: LanguageClient) -> None:
    uri = uri_in(client, "syntax.py")
    await open_document(client, uri, SOURCE)
    # Half-typed line in helper(): a syntax error there, TFL101 in step() stays.
    change(client, uri, 2, (10, 0), (10, 0), "    total = (\n")
    diagnostics = await diagnostics_for(client, uri, 2)
    codes = sorted((d.code, d.range.start.line) for d in diagnostics)
    assert ("TFL101", 5) in codes
    assert any(code == "TFL000" and line >= 9 for code, line in codes)


async def test_unicode_columns_are_utf16(client: LanguageClient) -> None:
    uri = uri_in(client, "unicode.py")
    text = SOURCE.replace('print("x", x)', 's = "𝛼é"; print("x", x)')
    diagnostics = await open_document(client, uri, text)
    (diag,) = diagnostics
    line = text.split("\n")[5]
    start = len(line[: line.index("print")].encode("utf-16-le")) // 2
    assert diag.range.start.character == start
    # 𝛼 is one code point but two UTF-16 units.
    assert start == line.index("print") + 1


async def test_burst_of_edits_never_publishes_stale_versions(client: LanguageClient) -> None:
    uri = uri_in(client, "burst.py")
    await open_document(client, uri, SOURCE)
    before = len(published(client))
    count = 200
    for i in range(count):
        # Type a comment character by character at the end of step()'s print line.
        change(client, uri, i + 2, (5, 17 + i), (5, 17 + i), "#" if i == 0 else "x")
    final = await diagnostics_for(client, uri, count + 1)
    assert [d.code for d in final] == ["TFL101"]
    versions = [p.version for p in published(client)[before:] if p.uri == uri]
    assert versions == sorted(versions), "a publish went back to an older version"
    # Coalescing: far fewer analyses than edits.
    assert len(versions) < count / 2


async def test_full_document_sync_and_close(client: LanguageClient) -> None:
    uri = uri_in(client, "full.py")
    await open_document(client, uri, "x = 1\n")
    replace_all(client, uri, 2, SOURCE)
    assert [d.code for d in await diagnostics_for(client, uri, 2)] == ["TFL101"]
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert await diagnostics_for(client, uri, None) == []


async def test_save_republishes(client: LanguageClient) -> None:
    uri = uri_in(client, "save.py")
    await open_document(client, uri, SOURCE)
    before = len([p for p in published(client) if p.uri == uri])
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await diagnostics_for(client, uri, 1)

    def republished() -> bool:
        return len([p for p in published(client) if p.uri == uri]) > before

    from tests.server.lsp import wait_for

    await wait_for(republished, what="a publish after didSave")
