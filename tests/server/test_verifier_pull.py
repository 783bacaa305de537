"""The verifier through pytest-lsp with VS Code's capabilities: pull diagnostics, server-created
progress, ``window/showDocument``, and a Keras 2 file verified by a Keras 2 worker."""

from __future__ import annotations

import importlib.util
import textwrap
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp import config, pull_capabilities, wait_for

pytestmark = [
    pytest.mark.tf,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(180),
    pytest.mark.skipif(
        importlib.util.find_spec("tensorflow") is None
        or importlib.util.find_spec("tf_keras") is None,
        reason="needs TensorFlow and tf-keras (pip install 'tflsp[tf]')",
    ),
]

# On Keras 2 a tf.Variable assigned to a layer attribute is tracked; Keras 3 drops it.
SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    import tf_keras as keras


    class Raw(keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
            self.scale = tf.Variable(2.0, name="scale")

        def call(self, x):
            return tf.matmul(x, self.kernel) * self.scale
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("verifier-pull")
    states: list[dict[str, Any]] = []

    @lsp_client.feature("tflsp/verifierState")
    def verifier_state(params: Any) -> None:
        states.append({"state": params.state, "detail": getattr(params, "detail", None)})

    lsp_client.states = states  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pull_capabilities(), root_uri=root.as_uri())
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def pull(client: LanguageClient, uri: str, previous: str | None = None) -> Any:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
        )
    )


async def test_keras2_file_runs_on_a_keras2_worker_and_pulls_its_result(
    client: LanguageClient,
) -> None:
    uri = (client.root / "legacy.py").as_uri()  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=SOURCE
            )
        )
    )
    await wait_for(lambda: client.states, what="the first verifier state")  # type: ignore[attr-defined]
    assert client.states[0]["state"] == "stopped"  # type: ignore[attr-defined]
    before = await pull(client, uri)
    assert all(d.source != "tflsp-verify" for d in before.items)
    refreshes = client.diagnostic_refresh_count

    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="tflsp.verifyClass", arguments=[uri, "Raw", 4])
    )
    assert result["data"]["keras"] == "2"
    assert result["data"]["versions"]["keras"].startswith("2.")
    tracking = result["data"]["results"][0]
    assert tracking["probe"] == "tracking" and tracking["outcome"] == "pass"
    assert tracking["observations"]["untracked"] == 0
    # Pull clients are told to ask again, and the answer carries the verifier's result.
    await wait_for(lambda: client.diagnostic_refresh_count > refreshes, what="a refresh")
    after = await pull(client, uri, before.result_id)
    assert after.kind == "full" and after.result_id != before.result_id
    verify = [d for d in after.items if d.source == "tflsp-verify"]
    assert [d.range.start.line for d in verify] == [4] * len(verify)
    assert any("passed" in d.message for d in verify)
    # Server-created progress and a report the client was asked to show.
    [token] = [t for t, values in client.progress_reports.items() if values]
    kinds = [type(v).__name__ for v in client.progress_reports[token]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"
    await wait_for(lambda: client.shown_documents, what="window/showDocument")
    assert client.shown_documents[-1].uri == result["data"]["reportUri"]
    assert client.shown_documents[-1].uri.endswith(".md")
    states = [s["state"] for s in client.states]  # type: ignore[attr-defined]
    assert "starting" in states and states[-1] == "ready"

    # Typing inside the class drops its result from the next pull.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=9, character=0),
                        end=types.Position(line=9, character=0),
                    ),
                    text="    # edited\n",
                )
            ],
        )
    )
    edited = await pull(client, uri, after.result_id)
    assert edited.kind == "full"
    assert all(d.source != "tflsp-verify" for d in edited.items)
