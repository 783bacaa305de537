"""Code lenses above Keras classes and tf.functions, and the verifier commands behind them."""

from __future__ import annotations

import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.helpers import docs_link
from tests.server.lsp import config, open_document, push_capabilities, wait_for

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    class Scale(keras.layers.Layer):
        def call(self, x):
            return x * 2


    class Net(keras.Model):
        def call(self, x):
            return x


    class Plain:
        pass


    @tf.function
    def step(x):
        return x + 1


    def eager(x):
        return x
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("lenses")
    lsp_client.init_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(capabilities=push_capabilities(), root_uri=root.as_uri())
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    result = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(result or [])


async def test_lenses_above_keras_classes_and_tf_functions(client: LanguageClient) -> None:
    uri = (client.root / "lenses.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    found = await lenses(client, uri)
    summary = [
        (lens.range.start.line, lens.command.command, list(lens.command.arguments or []))
        for lens in found
        if lens.command is not None
    ]
    assert summary == [
        (4, "tflsp.verifyClass", [uri, "Scale", 4]),
        (9, "tflsp.verifyClass", [uri, "Net", 9]),
        (19, "tflsp.verifyFunction", [uri, "step", 19]),
    ]
    assert all("TensorFlow" in lens.command.title for lens in found if lens.command)


async def test_lenses_follow_edits(client: LanguageClient) -> None:
    uri = (client.root / "moved.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=3, character=0),
                        end=types.Position(line=3, character=0),
                    ),
                    text="\n\n",
                )
            ],
        )
    )
    found = await lenses(client, uri)
    assert [lens.range.start.line for lens in found] == [6, 11, 21]


async def test_command_with_bad_arguments_is_an_error(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException, match="expected arguments"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="tflsp.verifyClass", arguments=[1, 2])
        )
    with pytest.raises(JsonRpcException, match="not defined"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="tflsp.noSuchCommand", arguments=[])
        )


async def test_commands_and_lenses_are_advertised(client: LanguageClient) -> None:
    capabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert capabilities.execute_command_provider is not None
    assert set(capabilities.execute_command_provider.commands) == {
        "tflsp.verifyClass",
        "tflsp.verifyFunction",
        "tflsp.verifyCatalog",
        "tflsp.restartVerifier",
        "tflsp.openDocs",
    }
    assert capabilities.code_lens_provider is not None


async def test_open_docs_without_show_document_falls_back_to_a_message(
    client: LanguageClient,
) -> None:
    before = len(client.messages)
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="tflsp.openDocs", arguments=["TFL101"])
    )
    assert result["shown"] is False  # Neovim 0.7 cannot show documents
    assert result["url"] == docs_link("TFL101")
    await wait_for(lambda: len(client.messages) > before, what="window/showMessage")
    assert result["url"] in client.messages[-1].message
