"""Position encodings: a client offering UTF-8 first (Neovim 0.11, which also pulls
diagnostics) gets UTF-8 columns; other languages are left alone."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp import config

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = 'import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    s = "é𝛼"; print(x)\n    return x\n'


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("encoding")
    lsp_client.init_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("neovim@v0.11.0"), root_uri=root.as_uri()
        )
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_utf8_is_negotiated_and_used(client: LanguageClient) -> None:
    capabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert capabilities.position_encoding == types.PositionEncodingKind.Utf8
    uri = (client.root / "utf8.py").as_uri()  # type: ignore[attr-defined]
    (diagnostic,) = await opened_and_pulled(client, uri, SOURCE, "python")
    line = SOURCE.split("\n")[5]
    prefix = line[: line.index("print")]
    assert diagnostic.range.start.character == len(prefix.encode("utf-8"))
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=5, character=len(prefix.encode("utf-8")) + 2),
        )
    )
    assert hover is not None and "TFL101" in hover.contents.value  # type: ignore[union-attr]


async def test_other_languages_get_no_diagnostics(client: LanguageClient) -> None:
    uri = (client.root / "notes.md").as_uri()  # type: ignore[attr-defined]
    assert await opened_and_pulled(client, uri, "# Not ( python\n", "markdown") == []


async def opened_and_pulled(
    client: LanguageClient, uri: str, text: str, language: str
) -> list[types.Diagnostic]:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language, version=1, text=text
            )
        )
    )
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return list(report.items)
