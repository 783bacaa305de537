"""LSP request and notification handlers: each reads the workspace and answers in JSON."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from tflsp.server.commands import (
    FIX_ALL,
    OPEN_DOCS,
    QUICKFIX,
    RESTART_VERIFIER,
    SECTION,
    VERIFY_CATALOG,
    VERIFY_CLASS,
    VERIFY_FUNCTION,
)
from tflsp.server.protocol import RawResult
from tflsp.server.texts import text

if TYPE_CHECKING:
    from tflsp.server.actions import ActionBuilder
    from tflsp.server.server import TflspServer

# Feature modules (hover, actions, lenses, settings) import the analyzer; they are imported in
# the handlers, after the initialize answer, not when the handlers are registered.

log = logging.getLogger(__name__)

# How long a workspace/diagnostic request with nothing new waits before answering anyway.
WORKSPACE_DIAGNOSTIC_HOLD = 30.0
# Links tflsp.openDocs shows as they are (anything else is taken for a pattern code or name).
_LINK_SCHEMES = ("http://", "https://", "file://")


def register(server: TflspServer) -> None:
    from tflsp.server.server import guarded

    def on(method: str, options: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            server.feature(method, options)(guarded(method, fn))
            return fn

        return decorate

    def lang_of(uri: str | None = None) -> str:
        target = server.docs.target_for(uri) if uri else None
        if target is not None:
            return target.lang
        return server.docs.settings.lang(server.docs.settings.for_path(None))

    # -- lifecycle -------------------------------------------------------------------------------
    @on(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.configure_from_initialize(params)

    @on(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        if server.capability("workspace.did_change_watched_files.dynamic_registration"):
            watcher = types.FileSystemWatcher(glob_pattern="**/pyproject.toml")
            server.client_register_capability(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="tflsp-pyproject",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[watcher]
                            ),
                        )
                    ]
                )
            )
        if server.capability("workspace.configuration"):
            server.background(pull_configuration())
        # Load the catalog and the detectors now, while the editor is still busy starting.
        asyncio.get_event_loop().call_soon(warm_up)
        # Tell the client what the verifier is doing (nothing yet, or disabled) and pre-warm it
        # if the settings say so.
        server.verification.configure()

    def warm_up() -> None:
        from tflsp.analysis.registry import all_detectors

        try:
            all_detectors()
            server.docs.catalog  # noqa: B018 - loading it is the point
        except Exception as exc:  # a broken install: say so once, keep serving requests
            log.exception("could not load the pattern catalog or the detectors")
            server.show(f"tflsp cannot analyse files: {exc}", types.MessageType.Error)

    async def pull_configuration() -> None:
        from tflsp.server.config import editor_section

        try:
            values = await server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            )
        except Exception as exc:  # the client may not answer; the settings we have stay
            log.info("workspace/configuration failed: %s", exc)
            return
        section = editor_section(values[0]) if values else None
        if section is not None and section != server.docs.settings.editor:
            server.docs.settings.set_editor(section)
            server.settings_changed()

    @on(types.SHUTDOWN)
    def shutdown(params: Any) -> None:
        # Synchronous on purpose: a client that sends "exit" right behind "shutdown" without
        # waiting must still get exit status 0.  The verifier closes in the background.
        server.collector.stop()
        server.background(server.verifier.close())

    # -- settings ----------------------------------------------------------------------------------
    @on(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        from tflsp.server.config import editor_section

        section = editor_section(params.settings)
        if section is None:
            if server.capability("workspace.configuration"):
                await pull_configuration()
            return
        server.docs.settings.set_editor(section)
        server.settings_changed()

    @on(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith("pyproject.toml") for change in params.changes):
            server.settings_changed()

    @on(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith("pyproject.toml"):
            server.settings_changed()
        elif server.docs.target_for(uri) is not None:
            target = server.docs.target_for(uri)
            assert target is not None
            server.schedule(target.key)

    # -- diagnostics (pull) ----------------------------------------------------------------------
    def report(uri: str) -> dict[str, Any]:
        target = server.fresh_target(uri)
        if target is None:
            return {"kind": "full", "items": []}
        pins = server.verification.pins
        pinned = [r.lsp for r in pins.rendered(target, server.docs.encoding) if r.uri == uri]
        result_id = f"{server.docs.settings.generation}.{target.revision}.{pins.stamp(target.key)}"
        return {
            "kind": "full",
            "resultId": result_id,
            "items": [r.lsp for r in target.rendered_for(uri)] + pinned,
        }

    @on(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="tflsp", inter_file_dependencies=False, workspace_diagnostics=True
        ),
    )
    def document_diagnostic(params: types.DocumentDiagnosticParams) -> RawResult:
        answer = report(params.text_document.uri)
        if params.previous_result_id and params.previous_result_id == answer.get("resultId"):
            return RawResult({"kind": "unchanged", "resultId": answer["resultId"]})
        return RawResult(answer)

    @on(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(params: types.WorkspaceDiagnosticParams) -> RawResult:
        previous = {p.uri: p.value for p in params.previous_result_ids or []}
        deadline = asyncio.get_event_loop().time() + WORKSPACE_DIAGNOSTIC_HOLD
        closed = server.closed_count
        while True:
            items = []
            changed = False
            for target in list(server.docs.targets.values()):
                for uri in target.uris():
                    item = report(uri)
                    item["uri"] = uri
                    item["version"] = target.version_of(uri)
                    if previous.get(uri) == item.get("resultId"):
                        item = {
                            "kind": "unchanged",
                            "uri": uri,
                            "version": item["version"],
                            "resultId": item["resultId"],
                        }
                    else:
                        changed = True
                    items.append(item)
            # A document closed meanwhile is a change too: the client's report must drop it.
            changed = changed or server.closed_count != closed
            if changed or not previous or asyncio.get_event_loop().time() >= deadline:
                return RawResult({"items": items})
            # Nothing new: hold the request open (clients re-ask as soon as it returns).
            await asyncio.sleep(0.2)

    # -- hover ------------------------------------------------------------------------------------
    @on(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> RawResult:
        from tflsp.server import hover as hover_feature

        uri = params.text_document.uri
        target = server.fresh_target(uri)
        if target is None:
            return RawResult(None)
        answer = hover_feature.hover(
            target,
            server.docs.catalog,
            uri,
            params.position.line,
            params.position.character,
            server.docs.encoding,
        )
        if answer is None:
            return RawResult(None)
        formats = server.capability("text_document.hover.content_format") or ["markdown"]
        kind = (
            "markdown"
            if "markdown" in [str(getattr(f, "value", f)) for f in formats]
            else "plaintext"
        )
        result: dict[str, Any] = {"contents": {"kind": kind, "value": answer.markdown}}
        if answer.range is not None:
            result["range"] = answer.range
        return RawResult(result)

    # -- code actions ------------------------------------------------------------------------------
    def builder_for(uri: str) -> ActionBuilder | None:
        from tflsp.server.actions import ActionBuilder

        target = server.fresh_target(uri)
        if target is None:
            return None
        return ActionBuilder(
            target,
            server.docs.catalog,
            server.docs.encoding,
            bool(server.capability("workspace.workspace_edit.document_changes", False)),
        )

    @on(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[QUICKFIX, FIX_ALL], resolve_provider=True),
    )
    def code_action(params: types.CodeActionParams) -> RawResult:
        uri = params.text_document.uri
        builder = builder_for(uri)
        if builder is None:
            return RawResult([])
        rng = server.protocol._converter.unstructure(params.range)
        only = [str(getattr(k, "value", k)) for k in params.context.only or []] or None
        actions = builder.for_range(uri, rng, only)
        properties = server.capability("text_document.code_action.resolve_support.properties") or []
        if "edit" not in properties:
            for action in actions:
                if action.get("kind") == FIX_ALL:
                    action["edit"] = builder.fix_all_edit() or {"changes": {}}
        return RawResult(actions)

    @on(types.CODE_ACTION_RESOLVE)
    def resolve_code_action(params: types.CodeAction) -> RawResult:
        action = server.protocol._converter.unstructure(params)
        data = action.get("data") or {}
        if isinstance(data, dict) and data.get("tflsp") == "fixAll":
            builder = builder_for(str(data.get("uri", "")))
            edit = builder.fix_all_edit() if builder is not None else None
            action["edit"] = edit or {"changes": {}}
        return RawResult(action)

    # -- code lenses ----------------------------------------------------------------------------
    @on(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(params: types.CodeLensParams) -> RawResult:
        from tflsp.server.lenses import code_lenses

        uri = params.text_document.uri
        target = server.fresh_target(uri)
        return RawResult(code_lenses(target, uri) if target is not None else [])

    # -- commands ---------------------------------------------------------------------------------
    def command(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            server.command(name)(guarded(name, fn))
            return fn

        return decorate

    @command(VERIFY_CLASS)
    async def verify_class(*args: Any) -> RawResult:
        return await server.verification.verify(args, function=False)

    @command(VERIFY_FUNCTION)
    async def verify_function(*args: Any) -> RawResult:
        return await server.verification.verify(args, function=True)

    @command(VERIFY_CATALOG)
    async def verify_catalog(*args: Any) -> RawResult:
        return await server.verification.verify_catalog(args)

    @command(RESTART_VERIFIER)
    async def restart_verifier(*args: Any) -> RawResult:
        return await server.verification.restart()

    @command(OPEN_DOCS)
    async def open_docs(*args: Any) -> RawResult:
        """Show a page: a link (``codeDescription.href``), a pattern code, or nothing for the
        start page of the documentation."""
        from tflsp.cli.links import docs_url, site_url

        if args and not isinstance(args[0], str):
            raise JsonRpcInvalidParams("expected a URL or a pattern code")
        lang = lang_of()
        settings = server.docs.settings.for_path(None)
        wanted = args[0] if args else None
        if wanted is None:
            url = site_url(settings.docs_base_url, lang)
            if url is None:
                raise JsonRpcInvalidParams("the documentation is not built; see `tflsp docs`")
        elif wanted.startswith(_LINK_SCHEMES):
            url = wanted
        else:
            found = docs_url(settings.docs_base_url, server.docs.catalog, wanted, lang)
            if found is None:
                raise JsonRpcInvalidParams(f"unknown pattern {wanted!r}")
            url = found
        shown = False
        if server.capability("window.show_document.support"):
            # A pattern's explanation file (no HTML site built) is a text document: the
            # editor opens it in a tab, where Markdown previews work; web pages go to a browser.
            in_editor = url.startswith("file://") and url.endswith(".md")
            result = await server.window_show_document_async(
                types.ShowDocumentParams(uri=url, external=not in_editor, take_focus=True)
            )
            shown = bool(getattr(result, "success", False))
        if not shown:
            linked = wanted is None or wanted.startswith(_LINK_SCHEMES)
            code = url.rsplit("/", 1)[-1] if linked else wanted
            server.show(text("docs_link", lang, code=code, url=url))
        return RawResult({"url": url, "shown": shown})
