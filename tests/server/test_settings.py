"""Settings: initializationOptions, didChangeConfiguration, workspace/configuration and
``[tool.tflsp]`` in pyproject.toml (watched), layered like ruff does."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import CATALOG
from tests.server.lsp import (
    change,
    config,
    open_document,
    published,
    pull_capabilities,
    wait_for,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        return x.numpy()
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("settings")
    caps = pull_capabilities()
    assert caps.text_document is not None
    caps.text_document.diagnostic = None  # push mode: settings changes re-publish
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            locale="en",
            initialization_options={"tflsp": {"ignore": ["TFL102"]}},
        )
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def republished(client: LanguageClient, uri: str, action: Any) -> list[types.Diagnostic]:
    """Run ``action`` and return the next diagnostics published for ``uri``."""
    before = len(published(client))
    action()

    def newer() -> list[types.Diagnostic] | None:
        for item in published(client)[before:]:
            if item.uri == uri:
                return item.diagnostics or [None]  # type: ignore[list-item]
        return None

    found = await wait_for(newer, what=f"a new publish for {uri}")
    return [d for d in found if d is not None]


def set_settings(client: LanguageClient, data: dict[str, Any]) -> Any:
    return lambda: client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"tflsp": data})
    )


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


async def test_initialization_options_apply(client: LanguageClient) -> None:
    uri = (client.root / "init.py").as_uri()  # type: ignore[attr-defined]
    assert codes(await open_document(client, uri, SOURCE)) == ["TFL101"]


async def test_did_change_configuration(client: LanguageClient) -> None:
    uri = (client.root / "change.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    found = await republished(
        client, uri, set_settings(client, {"severity": {"TFL101": "error"}, "lang": "ja"})
    )
    assert codes(found) == ["TFL101", "TFL102"]  # the new layer has no ignore
    by_code = {d.code: d for d in found}
    assert by_code["TFL101"].severity == types.DiagnosticSeverity.Error
    assert by_code["TFL101"].message == CATALOG["TFL101"].message(
        "default", "ja", {"function": "step"}
    )
    found = await republished(
        client,
        uri,
        set_settings(client, {"select": ["TFL102"], "docsBaseUrl": "https://example.org/d"}),
    )
    assert codes(found) == ["TFL102"]
    assert found[0].code_description is not None
    assert found[0].code_description.href == (
        f"https://example.org/d/patterns/{CATALOG['TFL102'].slug}.html"
    )
    await republished(client, uri, set_settings(client, {"ignore": ["TFL102"]}))


async def test_invalid_settings_fall_back_with_a_warning(client: LanguageClient) -> None:
    uri = (client.root / "invalid.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    before = len(client.messages)
    found = await republished(client, uri, set_settings(client, {"select": ["TFL999"]}))
    assert codes(found) == ["TFL101", "TFL102"]  # the defaults
    await wait_for(lambda: len(client.messages) > before, what="a warning")
    assert "TFL999" in client.messages[-1].message
    assert client.messages[-1].type == types.MessageType.Warning
    await republished(client, uri, set_settings(client, {"ignore": ["TFL102"]}))


async def test_pyproject_is_read_and_watched(client: LanguageClient) -> None:
    project: Path = client.root / "project"  # type: ignore[attr-defined]
    (project / "pkg").mkdir(parents=True)
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.tflsp]\nignore = ["TFL101"]\n', encoding="utf-8")
    uri = (project / "pkg" / "mod.py").as_uri()
    # The editor layer ignores TFL102, the project ignores TFL101: both apply.
    assert codes(await open_document(client, uri, SOURCE)) == []
    # The server asked to watch pyproject.toml files.
    registrations = client.registrations  # type: ignore[attr-defined]
    assert any(r.method == "workspace/didChangeWatchedFiles" for r in registrations)

    pyproject.write_text(
        '[tool.tflsp]\nselect = ["TFL1"]\nseverity = { TFL101 = "hint" }\n', encoding="utf-8"
    )

    def notify() -> None:
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]
            )
        )

    found = await republished(client, uri, notify)
    # The project now selects TFL1xx; the editor's ignore of TFL102 still applies on top.
    assert codes(found) == ["TFL101"]
    assert found[0].severity == types.DiagnosticSeverity.Hint


async def test_workspace_configuration_is_pulled(client: LanguageClient) -> None:
    uri = (client.root / "pulled.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    client.set_configuration({"ignore": ["TFL101", "TFL102"]}, section="tflsp")
    found = await republished(
        client,
        uri,
        lambda: client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings=None)
        ),
    )
    assert found == []


async def test_server_only_settings(client: LanguageClient) -> None:
    uri = (client.root / "server_only.py").as_uri()  # type: ignore[attr-defined]
    await open_document(client, uri, SOURCE)
    await republished(client, uri, set_settings(client, {"fixAll": False, "diagnosticsDelay": 300}))

    async def kinds() -> list[str]:
        result = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(
                    start=types.Position(line=5, character=4),
                    end=types.Position(line=5, character=4),
                ),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        return [str(a.kind) for a in result or [] if isinstance(a, types.CodeAction)]

    assert "source.fixAll.tflsp" not in await kinds()
    # With a delay, an edit is published only after it.
    loop = asyncio.get_running_loop()
    began = loop.time()
    found = await republished(
        client,
        uri,
        lambda: change(client, uri, 2, (0, 0), (0, 0), "# comment\n"),
    )
    assert loop.time() - began >= 0.25
    # This editor layer replaced the one that ignored TFL102.
    assert codes(found) == ["TFL101", "TFL102"]
    await republished(client, uri, set_settings(client, {"ignore": ["TFL102"]}))
    assert "source.fixAll.tflsp" in await kinds()
