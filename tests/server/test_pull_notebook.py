"""Pull diagnostics (LSP 3.17) and Jupyter notebooks, with a VS Code-like client."""

from __future__ import annotations

import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp import config, published, pull_capabilities, wait_for

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        return x * 2
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("pull")
    lsp_client.init_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(capabilities=pull_capabilities(), root_uri=root.as_uri())
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def open_text(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )


async def pull(
    client: LanguageClient, uri: str, previous: str | None = None
) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            identifier="tflsp",
            previous_result_id=previous,
        )
    )


async def test_server_announces_pull_and_notebook_support(client: LanguageClient) -> None:
    capabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert capabilities.diagnostic_provider is not None
    assert capabilities.diagnostic_provider.workspace_diagnostics is True
    assert capabilities.notebook_document_sync is not None


async def test_pull_reports_and_unchanged_result_ids(client: LanguageClient) -> None:
    uri = (client.root / "pull.py").as_uri()  # type: ignore[attr-defined]
    open_text(client, uri, SOURCE)
    report = await pull(client, uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.range.start.line) for d in report.items] == [("TFL101", 5)]
    again = await pull(client, uri, report.result_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=3, character=0),
                        end=types.Position(line=4, character=0),
                    ),
                    text="",
                )
            ],
        )
    )
    changed = await pull(client, uri, report.result_id)
    assert isinstance(changed, types.RelatedFullDocumentDiagnosticReport)
    assert list(changed.items) == []
    # Pull clients get no pushed diagnostics (they would show twice).
    assert not [p for p in published(client) if p.uri == uri]


async def test_workspace_diagnostic_covers_open_documents(client: LanguageClient) -> None:
    uri = (client.root / "workspace.py").as_uri()  # type: ignore[attr-defined]
    open_text(client, uri, SOURCE)
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    by_uri = {item.uri: item for item in report.items}
    assert uri in by_uri
    item = by_uri[uri]
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
    assert [d.code for d in item.items] == ["TFL101"]
    assert item.version == 1


CELLS = [
    # IPython syntax that is not Python: masked exactly as `tflsp check` masks it.
    (
        types.NotebookCellKind.Code,
        "import tensorflow as tf\n%matplotlib inline\nif True:\n    %time y = 1\n"
        "files = !ls\ntf.function?\n",
    ),
    (types.NotebookCellKind.Markup, "# Training\nprint('not code')\n"),
    (types.NotebookCellKind.Code, '@tf.function\ndef step(x):\n    print("x", x)\n    return x'),
]


def cell_uri(notebook: str, index: int) -> str:
    return f"vscode-notebook-cell:{notebook}#cell{index}"


async def open_notebook(client: LanguageClient, name: str) -> tuple[str, list[str]]:
    notebook = (client.root / name).as_uri()  # type: ignore[attr-defined]
    uris = [cell_uri(notebook, i) for i in range(len(CELLS))]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=kind, document=uri)
                    for (kind, _), uri in zip(CELLS, uris, strict=True)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=uri,
                    language_id="python" if kind == types.NotebookCellKind.Code else "markdown",
                    version=1,
                    text=text,
                )
                for (kind, text), uri in zip(CELLS, uris, strict=True)
            ],
        )
    )
    return notebook, uris


async def test_notebook_cells_get_their_own_diagnostics(client: LanguageClient) -> None:
    _, uris = await open_notebook(client, "train.ipynb")
    first = await pull(client, uris[0])
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert list(first.items) == []  # no IPython line is a syntax error
    report = await pull(client, uris[2])
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in report.items] == [
        ("TFL101", 2, 4)
    ]
    # Hover and code actions work with cell URIs and cell-relative positions.
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uris[2]),
            position=types.Position(line=2, character=6),
        )
    )
    assert hover is not None and "TFL101" in hover.contents.value  # type: ignore[union-attr]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uris[2]),
            range=report.items[0].range,
            context=types.CodeActionContext(diagnostics=list(report.items)),
        )
    )
    fixes = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.is_preferred]
    assert fixes and fixes[0].edit is not None
    (change,) = fixes[0].edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == uris[2]
    assert change.edits[0].range.start.line == 2


async def test_notebook_edits_and_new_cells(client: LanguageClient) -> None:
    notebook, uris = await open_notebook(client, "edit.ipynb")
    # Remove the decorator from the last cell, and add a new cell that uses print in a graph.
    new_uri = cell_uri(notebook, 9)
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri=notebook),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(
                            start=3,
                            delete_count=0,
                            cells=[
                                types.NotebookCell(
                                    kind=types.NotebookCellKind.Code, document=new_uri
                                )
                            ],
                        ),
                        did_open=[
                            types.TextDocumentItem(
                                uri=new_uri,
                                language_id="python",
                                version=1,
                                text="@tf.function\ndef other(y):\n    print(y)\n",
                            )
                        ],
                    ),
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=uris[2], version=2),
                            changes=[
                                types.TextDocumentContentChangePartial(
                                    range=types.Range(
                                        start=types.Position(line=0, character=0),
                                        end=types.Position(line=1, character=0),
                                    ),
                                    text="",
                                )
                            ],
                        )
                    ],
                )
            ),
        )
    )
    old = await pull(client, uris[2])
    assert isinstance(old, types.RelatedFullDocumentDiagnosticReport)
    assert list(old.items) == []
    new = await pull(client, new_uri)
    assert isinstance(new, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.range.start.line) for d in new.items] == [("TFL101", 2)]
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=notebook),
            cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in [*uris, new_uri]],
        )
    )
    closed = await pull(client, new_uri)
    assert isinstance(closed, types.RelatedFullDocumentDiagnosticReport)
    assert list(closed.items) == []


async def test_settings_change_asks_the_client_to_pull_again(client: LanguageClient) -> None:
    uri = (client.root / "refresh.py").as_uri()  # type: ignore[attr-defined]
    open_text(client, uri, SOURCE)
    before = client.diagnostic_refresh_count
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"tflsp": {"ignore": ["TFL101"]}})
    )
    await wait_for(lambda: client.diagnostic_refresh_count > before, what="a refresh request")
    report = await pull(client, uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert list(report.items) == []
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"tflsp": {}})
    )
