"""Hover in English and Japanese: flagged ranges, TensorFlow APIs, suppression comments."""

from __future__ import annotations

import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import CATALOG, docs_link
from tests.server.lsp import config, open_document, push_capabilities

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        tf.print("x", x)
        return x * 2


    @tf.function
    def quiet(x):
        print("quiet", x)  # tflsp: ignore[TFL101]
        return x
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("hover")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=push_capabilities(), root_uri=root.as_uri())
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def hover_at(
    client: LanguageClient, uri: str, line: int, character: int
) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )


def markdown(result: types.Hover | None) -> str:
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def opened(client: LanguageClient, name: str, text: str = SOURCE) -> str:
    uri = (client.root / name).as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, text)
    return uri


async def test_hover_on_flagged_range_explains_the_pattern(client: LanguageClient) -> None:
    uri = await opened(client, "flagged.py")
    text = markdown(await hover_at(client, uri, 5, 6))
    pattern = CATALOG["TFL101"]
    explanation = pattern.explanation("en")
    assert pattern.title_in("en") in text
    assert "Why is this bad?" in text and "How to fix" in text and "Version notes" in text
    # The sections' own text, not just headings.
    assert explanation["fix"].splitlines()[0] in text
    assert f"]({docs_link('TFL101')})" in text


async def test_hover_on_tf_api_lists_related_patterns(client: LanguageClient) -> None:
    uri = await opened(client, "api.py")
    # The cursor on "function" in "@tf.function".
    result = await hover_at(client, uri, 3, 5)
    text = markdown(result)
    related = CATALOG.related_to_api("tensorflow.function")
    assert related, "the catalog should know patterns about tf.function"
    for pattern in related:
        assert pattern.code in text
    assert result is not None and result.range is not None
    assert (result.range.start.character, result.range.end.character) == (4, 12)


async def test_hover_on_unrelated_name_is_empty(client: LanguageClient) -> None:
    uri = await opened(client, "plain.py")
    # "x" in "return x * 2": nothing to say.
    assert await hover_at(client, uri, 7, 11) is None
    # Beyond the end of the document.
    assert await hover_at(client, uri, 500, 0) is None


async def test_hover_on_code_in_suppression_comment(client: LanguageClient) -> None:
    uri = await opened(client, "suppressed.py")
    line = SOURCE.split("\n")[12]
    column = line.index("TFL101") + 2
    text = markdown(await hover_at(client, uri, 12, column))
    assert CATALOG["TFL101"].title_in("en") in text


async def test_hover_on_unknown_document(client: LanguageClient) -> None:
    assert await hover_at(client, "file:///nowhere/never-opened.py", 0, 0) is None


@pytest_lsp.fixture(scope="module", config=config())
async def ja_client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("hover-ja")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=push_capabilities(), root_uri=root.as_uri(), locale="ja-JP"
        )
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_japanese_locale_gives_japanese_messages_and_hover(ja_client: LanguageClient) -> None:
    uri = (ja_client.root / "ja.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(ja_client, uri, SOURCE)
    pattern = CATALOG["TFL101"]
    assert diagnostics[0].message == pattern.message("default", "ja", {"function": "step"})
    assert diagnostics[0].code_description is not None
    assert diagnostics[0].code_description.href == docs_link("TFL101", "ja")
    text = markdown(await hover_at(ja_client, uri, 5, 6))
    assert pattern.title_in("ja") in text
    assert "なぜ問題か" in text and "直し方" in text
