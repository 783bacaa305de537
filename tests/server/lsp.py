"""Helpers for driving the real ``tflsp serve`` process with pytest-lsp."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, make_test_lsp_client

ROOT = Path(__file__).resolve().parents[2]
SERVER_COMMAND = [sys.executable, "-m", "tflsp", "serve", "--stdio"]
TIMEOUT = 20.0


@dataclass
class Published:
    uri: str
    version: int | None
    diagnostics: list[types.Diagnostic]


def recording_client() -> LanguageClient:
    """A pytest-lsp client that also keeps every publishDiagnostics in order."""
    client = make_test_lsp_client()
    client.published = []  # type: ignore[attr-defined]
    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        client.published.append(  # type: ignore[attr-defined]
            Published(params.uri, params.version, list(params.diagnostics))
        )
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record

    client.registrations = []  # type: ignore[attr-defined]

    def register_capability(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    features[types.CLIENT_REGISTER_CAPABILITY] = register_capability
    client.lens_refreshes = 0  # type: ignore[attr-defined]

    def refresh_lenses(params: None) -> None:
        client.lens_refreshes += 1  # type: ignore[attr-defined]

    features[types.WORKSPACE_CODE_LENS_REFRESH] = refresh_lenses

    # lsprotocol 2025.0.0 structures every code action that has a "command" key as a
    # Command, even when that key holds a Command object (a CodeAction with a command).
    # Editors look at the key's type; make the test client do the same.
    converter = client.protocol._converter

    def command_or_action(value: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(value.get("command"), str):
            return converter.structure(value, types.Command)
        return converter.structure(value, types.CodeAction)

    converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007 - the exact type lsprotocol uses
        command_or_action,
    )
    return client


def config(env: dict[str, str] | None = None) -> ClientServerConfig:
    server_env = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
    server_env.pop("LC_ALL", None)
    server_env.pop("TF_USE_LEGACY_KERAS", None)
    return ClientServerConfig(
        server_command=SERVER_COMMAND, client_factory=recording_client, server_env=server_env
    )


def push_capabilities() -> types.ClientCapabilities:
    """Neovim 0.7: push diagnostics, UTF-16, code action resolve."""
    return pytest_lsp.client_capabilities("neovim@v0.7.0")


def pull_capabilities() -> types.ClientCapabilities:
    """VS Code with pull diagnostics (LSP 3.17) and notebooks."""
    caps = pytest_lsp.client_capabilities("visual-studio-code")
    assert caps.text_document is not None
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
        related_document_support=True
    )
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()
    )
    assert caps.workspace is not None
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


def published(client: LanguageClient) -> list[Published]:
    return client.published  # type: ignore[attr-defined,no-any-return]


async def wait_for(predicate: Any, timeout: float = TIMEOUT, what: str = "condition") -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def diagnostics_for(
    client: LanguageClient, uri: str, version: int | None
) -> list[types.Diagnostic]:
    """The diagnostics published for ``uri`` at ``version`` (waits for them)."""

    def find() -> Published | None:
        for item in reversed(published(client)):
            if item.uri == uri and item.version == version:
                return item
        return None

    found = await wait_for(find, what=f"diagnostics for {uri} v{version}")
    return found.diagnostics  # type: ignore[no-any-return]


async def open_document(
    client: LanguageClient, uri: str, text: str, version: int = 1
) -> list[types.Diagnostic]:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=version, text=text
            )
        )
    )
    return await diagnostics_for(client, uri, version)


def change(
    client: LanguageClient,
    uri: str,
    version: int,
    start: tuple[int, int],
    end: tuple[int, int],
    text: str,
) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                    text=text,
                )
            ],
        )
    )


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) the way an editor does: from the end backwards."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        line = lines[position.line] if position.line < len(lines) else ""
        units = line.encode("utf-16-le")[: position.character * 2].decode("utf-16-le")
        return sum(len(x) + 1 for x in lines[: position.line]) + len(units)

    spans = sorted(
        ((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    found: list[types.TextEdit] = []
    if edit.changes:
        found.extend(edit.changes.get(uri, []))
    for change_ in edit.document_changes or []:
        if isinstance(change_, types.TextDocumentEdit) and change_.text_document.uri == uri:
            found.extend(e for e in change_.edits if isinstance(e, types.TextEdit))
    return found
