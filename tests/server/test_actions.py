"""Code actions: each edit, applied as an editor would, removes the diagnostic it is for."""

from __future__ import annotations

import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import CATALOG, docs_link
from tests.server.lsp import (
    apply_text_edits,
    config,
    diagnostics_for,
    edits_for,
    open_document,
    pull_capabilities,
    replace_all,
    wait_for,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        print("y", x)  # keep this comment
        return x * 2
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("actions")
    caps = pull_capabilities()
    # Push diagnostics keep this test simple; pull has its own test module.
    assert caps.text_document is not None
    caps.text_document.diagnostic = None
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=caps, root_uri=root.as_uri())
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def actions_at(
    client: LanguageClient, uri: str, diagnostic: types.Diagnostic, only: list[str] | None = None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def apply_and_recheck(
    client: LanguageClient, uri: str, text: str, edit: types.WorkspaceEdit, version: int
) -> tuple[str, list[types.Diagnostic]]:
    new_text = apply_text_edits(text, edits_for(edit, uri))
    replace_all(client, uri, version, new_text)
    return new_text, await diagnostics_for(client, uri, version)


async def test_quick_fix_removes_the_diagnostic(client: LanguageClient) -> None:
    uri = (client.root / "quickfix.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, SOURCE)
    first = diagnostics[0]
    actions = await actions_at(client, uri, first)
    fixes = [a for a in actions if a.is_preferred]
    assert len(fixes) == 1
    assert fixes[0].kind == types.CodeActionKind.QuickFix
    assert fixes[0].title == CATALOG["TFL101"].fix_title("en")
    assert fixes[0].edit is not None
    # VS Code capabilities: versioned document changes.
    assert fixes[0].edit.document_changes
    new_text, after = await apply_and_recheck(client, uri, SOURCE, fixes[0].edit, 2)
    assert 'tf.print("x", x)' in new_text
    assert [d.range.start.line for d in after] == [6]


async def test_ignore_action_adds_and_extends_the_comment(client: LanguageClient) -> None:
    uri = (client.root / "ignore.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, SOURCE)
    text = SOURCE
    version = 1
    for diagnostic in diagnostics:
        actions = await actions_at(client, uri, diagnostic)
        (ignore,) = [a for a in actions if a.title == "Ignore TFL101 on this line"]
        assert ignore.edit is not None
        version += 1
        text, after = await apply_and_recheck(client, uri, text, ignore.edit, version)
        assert diagnostic.range.start.line not in [d.range.start.line for d in after]
    assert '    print("x", x)  # tflsp: ignore[TFL101]' in text
    # An existing comment is kept; the suppression goes after it.
    assert "# keep this comment  # tflsp: ignore[TFL101]" in text


async def test_ignore_extends_an_existing_suppression(client: LanguageClient) -> None:
    uri = (client.root / "extend.py").as_uri()  # type: ignore[attr-defined]
    text = SOURCE.replace('print("x", x)', 'print("x", x)  # tflsp: ignore[TFL102]')
    diagnostics = await open_document(client, uri, text)
    target = next(d for d in diagnostics if d.range.start.line == 5)
    actions = await actions_at(client, uri, target)
    (ignore,) = [a for a in actions if a.title.startswith("Ignore")]
    assert ignore.edit is not None
    text, after = await apply_and_recheck(client, uri, text, ignore.edit, 2)
    assert "# tflsp: ignore[TFL102, TFL101]" in text
    assert 5 not in [d.range.start.line for d in after]


async def test_open_docs_action_shows_the_page(client: LanguageClient) -> None:
    uri = (client.root / "docs.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, SOURCE)
    actions = await actions_at(client, uri, diagnostics[0])
    (docs,) = [a for a in actions if a.command is not None]
    assert docs.command is not None and docs.command.command == "tflsp.openDocs"
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=docs.command.command, arguments=docs.command.arguments)
    )
    url = result["url"]
    assert url == docs_link("TFL101")
    await wait_for(lambda: client.shown_documents, what="window/showDocument")
    shown = client.shown_documents[-1]
    assert shown.uri == url
    # A web page opens in a browser; the explanation file (no HTML site built) in an editor tab.
    assert shown.external is (not url.endswith(".md"))


async def test_fix_all_resolves_to_an_edit_that_fixes_everything(client: LanguageClient) -> None:
    uri = (client.root / "fixall.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, SOURCE)
    assert len(diagnostics) == 2
    actions = await actions_at(client, uri, diagnostics[0], only=["source.fixAll"])
    (fix_all,) = actions
    assert fix_all.kind == "source.fixAll.tflsp"
    assert fix_all.edit is None  # computed lazily
    resolved = await client.code_action_resolve_async(fix_all)
    assert resolved.edit is not None
    text, after = await apply_and_recheck(client, uri, SOURCE, resolved.edit, 2)
    assert after == []
    assert text.count("tf.print(") == 2


async def test_only_filters_kinds(client: LanguageClient) -> None:
    uri = (client.root / "only.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, SOURCE)
    actions = await actions_at(client, uri, diagnostics[0], only=["source"])
    assert [a.kind for a in actions] == ["source.fixAll.tflsp"]
    actions = await actions_at(client, uri, diagnostics[0], only=["refactor"])
    assert actions == []


def _fixable_patterns() -> list[str]:
    return [p.code for p in CATALOG if p.fix.available]


@pytest.mark.parametrize("code", _fixable_patterns())
async def test_every_catalog_quick_fix_removes_its_diagnostic(
    client: LanguageClient, code: str
) -> None:
    """bad.py of each fixable pattern: every offered fix, applied, removes that finding."""
    pattern = CATALOG[code]
    source = pattern.bad_path.read_text(encoding="utf-8")
    uri = (client.root / f"catalog_{code}.py").as_uri()  # type: ignore[attr-defined]
    diagnostics = await open_document(client, uri, source)
    version = 1
    fixed = 0
    for diagnostic in [d for d in diagnostics if d.code == code]:
        actions = await actions_at(client, uri, diagnostic)
        fixes = [a for a in actions if a.edit is not None and a.kind == "quickfix"]
        fixes = [a for a in fixes if not a.title.startswith("Ignore")]
        for action in fixes:
            assert action.edit is not None
            new_text = apply_text_edits(source, edits_for(action.edit, uri))
            version += 1
            replace_all(client, uri, version, new_text)
            after = await diagnostics_for(client, uri, version)
            same = [
                d
                for d in after
                if d.code == code
                and d.range.start.line == diagnostic.range.start.line
                and d.range.start.character == diagnostic.range.start.character
            ]
            assert same == [], f"{action.title} left {code} in place"
            fixed += 1
    if pattern.fix.availability == "always":
        assert fixed > 0
