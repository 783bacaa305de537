"""The verifier commands, from a code-lens click to diagnostics, a report and progress.

``tflsp.verifyClass`` / ``tflsp.verifyFunction`` take ``uri, name, line`` (the lens arguments)
and optionally a list of probe kinds; ``tflsp.verifyCatalog`` takes pattern selectors;
``tflsp.restartVerifier`` takes nothing.  A verification:

1. reads the document as the editor has it now (unsaved edits included) and pins the result
   to the block holding the class or function (:mod:`tflsp.server.verify_pins`);
2. reports LSP work-done progress - on the client's ``workDoneToken`` or on one the server
   creates - and stops the probe on ``$/cancelRequest`` or ``window/workDoneProgress/cancel``;
3. publishes ``tflsp-verify`` diagnostics with the analyzer's, returns the report (Markdown
   and the probe results) as the command's result, and shows it (``window/showDocument`` of a
   Markdown file, else ``window/showMessage``).

The bridge's state goes to the client as ``tflsp/verifierState`` notifications.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from tflsp.server.protocol import RawResult, TflspProtocol
from tflsp.server.texts import text
from tflsp.server.transport import send_json
from tflsp.server.verifier import (
    Progress,
    VerifierFailed,
    VerifierOptions,
    VerifierUnavailable,
    VerifyOutcome,
    VerifyTarget,
)
from tflsp.server.verify_pins import Pin, VerifyPins
from tflsp.server.verify_results import WorkDone, definition, diagnostics_for, write_report

if TYPE_CHECKING:
    from tflsp.server.server import TflspServer
    from tflsp.server.workspace import Target

log = logging.getLogger(__name__)

STATE_NOTIFICATION = "tflsp/verifierState"
REQUEST_FAILED = -32803
REQUEST_CANCELLED = -32800
# How long the server waits for the client to answer window/workDoneProgress/create.
CREATE_TIMEOUT = 5.0


@dataclass
class Prepared:
    target: VerifyTarget
    doc: Target
    pin: Pin | None
    lang: str
    function: bool


class Verification:
    def __init__(self, server: TflspServer) -> None:
        self.server = server
        self.pins = VerifyPins()
        self._tokens = itertools.count(1)
        self._sent: tuple[str, str] | None = None
        server.verifier.set_listener(lambda state, detail: self.notify_state())

    # -- state and settings --------------------------------------------------------------------
    def notify_state(self) -> None:
        """Send ``tflsp/verifierState`` if the state or its detail changed since last time."""
        bridge = self.server.verifier
        current = (bridge.state.value, bridge.detail)
        if current == self._sent:
            return
        self._sent = current
        params: dict[str, Any] = {"state": current[0]}
        if current[1]:
            params["detail"] = current[1]
        send_json(
            self.server.protocol, {"jsonrpc": "2.0", "method": STATE_NOTIFICATION, "params": params}
        )

    def options(self, doc: Target | None = None) -> VerifierOptions:
        settings = doc.settings if doc is not None and doc.settings is not None else None
        return VerifierOptions.from_settings(settings or self.server.docs.settings.for_path(None))

    def configure(self) -> None:
        """Settings changed (or the client is ready): pass them on, pre-warm if asked.  The
        first call also tells the client the state it starts in."""
        options = self.options()
        self.server.verifier.configure(options)
        self.notify_state()
        if options.enabled and options.prewarm:
            self.server.background(self.server.verifier.prewarm())

    # -- commands ------------------------------------------------------------------------------
    def prepare(self, args: tuple[Any, ...], function: bool) -> Prepared:
        if len(args) < 3 or not isinstance(args[0], str) or not isinstance(args[1], str):
            raise JsonRpcInvalidParams("expected arguments: uri, name, line[, probes]")
        uri, name, line = args[0], args[1], args[2]
        if not isinstance(line, int) or isinstance(line, bool):
            raise JsonRpcInvalidParams("line must be an integer")
        probes: tuple[str, ...] = ()
        if len(args) > 3 and args[3] is not None:
            if not isinstance(args[3], list) or not all(isinstance(p, str) for p in args[3]):
                raise JsonRpcInvalidParams("probes must be a list of probe names")
            probes = tuple(args[3])
        doc = self.server.fresh_target(uri)
        if doc is None:
            raise JsonRpcInvalidParams(f"{uri} is not open in the editor")
        where = doc.to_module(uri, line, 0, self.server.docs.encoding)
        if where is None:
            raise JsonRpcInvalidParams(f"line {line} is not in {uri}")
        header, kind = definition(doc, name, where[0], function)
        summary = doc.result.summary if doc.result is not None else None
        options = self.options(doc)
        source = doc.text.buffer.text if doc.text is not None else doc.source
        path = doc.path
        target = VerifyTarget(
            uri=uri,
            name=name,
            line=line,
            source=source,
            path=str(path) if path is not None else (uri.rsplit("/", 1)[-1] or "untitled.py"),
            kind=kind,
            keras=options.keras_for(summary.keras_version if summary is not None else None),
            probes=probes,
            timeout=options.timeout,
        )
        pin = self.pins.make_pin(doc, name, header) if header is not None else None
        return Prepared(target, doc, pin, doc.lang, function)

    async def verify(self, args: tuple[Any, ...], function: bool) -> RawResult:
        prepared = self.prepare(args, function)
        self._refuse_if_disabled(prepared.doc, prepared.lang)
        bridge = self.server.verifier
        call = bridge.verify_function if function else bridge.verify_class
        outcome = await self._run(
            text("verify_progress", prepared.lang, name=prepared.target.name),
            lambda progress: call(prepared.target, progress),
            prepared.lang,
            prepared.target.name,
        )
        return RawResult(self._finish_probe(prepared, outcome).as_json())

    async def verify_catalog(self, args: tuple[Any, ...]) -> RawResult:
        from tflsp.verify.report import render_catalog_markdown

        select = [str(a) for a in args if isinstance(a, str)]
        lang = self._lang()
        self._refuse_if_disabled(None, lang)
        outcome = await self._run(
            text("verify_catalog_progress", lang),
            lambda progress: self.server.verifier.verify_catalog(select, progress),
            lang,
            "catalog",
        )
        outcome.report = render_catalog_markdown(
            outcome.data.get("results", []), summary=outcome.summary, lang=lang
        )
        self._publish_report(outcome, "catalog", lang)
        return RawResult(outcome.as_json())

    async def restart(self) -> RawResult:
        lang = self._lang()
        self._refuse_if_disabled(None, lang)
        outcome = await self._run(
            "tflsp", lambda progress: self._restart(), lang, "restart", progress=False
        )
        self.server.show(text("verifier_restarted", lang, detail=outcome.summary))
        return RawResult(outcome.as_json())

    async def _restart(self) -> VerifyOutcome:
        state = await self.server.verifier.restart()
        detail = self.server.verifier.detail
        return VerifyOutcome(
            True,
            f"{state.value}: {detail}" if detail else state.value,
            data={"state": state.value, "detail": detail},
        )

    # -- running -------------------------------------------------------------------------------
    async def _run(
        self,
        title: str,
        job: Callable[[Progress], Awaitable[VerifyOutcome]],
        lang: str,
        name: str,
        *,
        progress: bool = True,
    ) -> VerifyOutcome:
        server = self.server
        msg_id = server.protocol.msg_id
        work = WorkDone(server, await self._token(msg_id) if progress else None)
        work.begin(title)
        task = asyncio.ensure_future(job(work.report))
        by_client: list[bool] = []

        def cancel() -> None:
            by_client.append(True)
            task.cancel()

        protocol = _protocol(server)
        if msg_id is not None:
            protocol.cancel_hooks[msg_id] = cancel
        work.on_cancel(cancel)
        try:
            outcome = await task
        except asyncio.CancelledError:
            if not by_client:
                raise  # the server itself is stopping this request (shutdown)
            message = text("verify_cancelled", lang, name=name)
            work.end(message)
            raise JsonRpcException(message, code=REQUEST_CANCELLED, data=self._state()) from None
        except VerifierUnavailable as exc:
            work.end(str(exc))
            message = text("verifier_unavailable", lang, reason=str(exc))
            server.show(message, types.MessageType.Warning)
            raise JsonRpcException(message, code=REQUEST_FAILED, data=self._state()) from exc
        except VerifierFailed as exc:
            message = str(exc)
            work.end(message.split("\n", 1)[0])
            server.show(
                text("verifier_failed", lang, message=message.split("\nLast worker output", 1)[0]),
                types.MessageType.Error,
            )
            raise JsonRpcException(message, code=REQUEST_FAILED, data=self._state()) from exc
        except ValueError as exc:  # unknown probe or pattern selector
            work.end(str(exc))
            raise JsonRpcInvalidParams(str(exc)) from exc
        finally:
            if msg_id is not None:
                protocol.cancel_hooks.pop(msg_id, None)
        work.end(outcome.summary)
        return outcome

    async def _token(self, msg_id: Any) -> Any:
        """The client's workDoneToken for this request, else one the server creates."""
        server = self.server
        tokens = _protocol(server).work_done_tokens
        token = tokens.pop(msg_id, None) if msg_id is not None else None
        if token is not None:
            return token
        if not server.capability("window.work_done_progress"):
            return None
        token = f"tflsp-verify-{os.getpid()}-{next(self._tokens)}"
        try:
            await asyncio.wait_for(server.work_done_progress.create_async(token), CREATE_TIMEOUT)
        except Exception as exc:  # a client that refuses or never answers: no progress
            log.info("window/workDoneProgress/create failed: %s", exc)
            return None
        return token

    def _state(self) -> dict[str, Any]:
        bridge = self.server.verifier
        return {"state": bridge.state.value, "detail": bridge.detail}

    def _lang(self) -> str:
        return self.server.docs.settings.lang(self.server.docs.settings.for_path(None))

    def _refuse_if_disabled(self, doc: Target | None, lang: str) -> None:
        if self.options(doc).enabled:
            return
        message = text("verifier_disabled", lang)
        self.server.show(message, types.MessageType.Warning)
        raise JsonRpcException(
            message, code=REQUEST_FAILED, data={"state": "disabled", "detail": message}
        )

    # -- results -------------------------------------------------------------------------------
    def _finish_probe(self, prepared: Prepared, outcome: VerifyOutcome) -> VerifyOutcome:
        from tflsp.cli.links import docs_url
        from tflsp.verify.report import annotate, render_markdown

        server = self.server
        catalog = server.docs.catalog
        lang = prepared.lang
        results: list[dict[str, Any]] = outcome.data.get("results", [])
        for result in results:
            annotate(result, catalog, lang)
        settings = prepared.doc.settings or server.docs.settings.for_path(None)

        def link(code: str) -> str | None:
            return docs_url(settings.docs_base_url, catalog, code, lang)

        shown: list[dict[str, Any]] = []
        doc = server.fresh_target(prepared.target.uri)
        if prepared.pin is not None and doc is not None:
            items = diagnostics_for(results, prepared.pin.header, lang, link)
            if self.pins.attach(doc, prepared.pin, items):
                shown = [
                    r.lsp
                    for r in self.pins.rendered(doc, server.docs.encoding)
                    if r.lsp["data"]["verify"] == prepared.pin.name
                ]
            self._republish(doc)
        outcome.report = render_markdown(
            results,
            target=prepared.target.name,
            path=prepared.target.path,
            lang=lang,
            docs_url=link,
        )
        outcome.data["diagnostics"] = shown
        self._publish_report(outcome, prepared.target.name, lang)
        return outcome

    def _republish(self, doc: Target) -> None:
        server = self.server
        if not server.pull_diagnostics:
            server.refresh(doc)
        elif server.capability("workspace.diagnostics.refresh_support"):
            server.workspace_diagnostic_refresh(None)

    def _publish_report(self, outcome: VerifyOutcome, name: str, lang: str) -> None:
        outcome.data.update(self._state())
        try:
            path = write_report(outcome.report, name)
        except OSError as exc:
            log.warning("could not write the verification report: %s", exc)
            return
        outcome.data["reportUri"] = path.as_uri()
        self.server.background(self._show(path, outcome, lang))

    async def _show(self, path: Path, outcome: VerifyOutcome, lang: str) -> None:
        server = self.server
        if server.capability("window.show_document.support"):
            try:
                answer = await asyncio.wait_for(
                    server.window_show_document_async(
                        types.ShowDocumentParams(uri=path.as_uri(), take_focus=False)
                    ),
                    CREATE_TIMEOUT * 2,
                )
                if getattr(answer, "success", False):
                    return
            except Exception as exc:
                log.info("window/showDocument failed: %s", exc)
        kind = types.MessageType.Info if outcome.ok else types.MessageType.Warning
        server.show(text("verify_report_at", lang, summary=outcome.summary, path=path), kind)


def _protocol(server: TflspServer) -> TflspProtocol:
    protocol = server.protocol
    assert isinstance(protocol, TflspProtocol)
    return protocol
