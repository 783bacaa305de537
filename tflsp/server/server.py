"""The tflsp language server: pygls wiring around :mod:`tflsp.server.workspace`.

Diagnostics are computed on the event loop as soon as no newer message is waiting (see
:meth:`TflspServer.schedule`): every ``didChange`` already received is applied first, so a
burst of edits is analysed once and nothing is ever published for an outdated version.

The analyzer, the catalog and the settings are imported only after the ``initialize`` answer
is sent (:attr:`TflspServer.docs`), so the editor sees the server start as fast as pygls
itself allows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder, get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.lsp.server import LanguageServer

from tflsp import __version__
from tflsp.server.documents import Cell, TextBuffer, structure_change
from tflsp.server.memory import IdleCollector
from tflsp.server.positions import UTF16
from tflsp.server.protocol import TflspProtocol
from tflsp.server.render import publish_body
from tflsp.server.texts import text
from tflsp.server.transport import InputWatch, send_raw
from tflsp.server.verification import Verification
from tflsp.server.verifier import VerifierBridge

if TYPE_CHECKING:
    from tflsp.server.workspace import Target, Workspace

log = logging.getLogger(__name__)

# While more input is already waiting, analysis waits for it, but never longer than this.
_MAX_DEFERRAL = 0.05
# Fault injection for the robustness tests: methods whose handler raises on purpose.
_FAULTS = frozenset(filter(None, os.environ.get("TFLSP_FAULT_INJECTION", "").split(",")))


class InjectedFault(RuntimeError):
    pass


def fault_point(method: str) -> None:
    if method in _FAULTS:
        raise InjectedFault(f"fault injected into {method} (TFLSP_FAULT_INJECTION)")


class TflspServer(LanguageServer):
    def __init__(self, verifier: VerifierBridge | None = None) -> None:
        super().__init__(
            "tflsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[
                    types.NotebookDocumentFilterWithCells(
                        cells=[types.NotebookCellLanguage(language="python")], notebook="*"
                    )
                ]
            ),
            protocol_cls=TflspProtocol,
        )
        self._docs: Workspace | None = None
        self._encoding = UTF16
        self._locale: str | None = None
        self._init_options: Any = None
        if verifier is None:
            from tflsp.server.worker_bridge import WorkerBridge

            verifier = WorkerBridge(catalog=lambda: self.docs.catalog)
        self.verifier: VerifierBridge = verifier
        self.verification = Verification(self)
        self.watch: InputWatch | None = None
        self.pull_diagnostics = False
        self._dirty: dict[str, None] = {}
        self._flush_handle: asyncio.Handle | None = None
        self._deferred_since: float | None = None
        self._notices: dict[str, str] = {}
        self.closed_count = 0  # documents closed so far (a held workspace/diagnostic watches it)
        self._tasks: set[asyncio.Future[Any]] = set()
        self.collector = IdleCollector(self.busy)
        from tflsp.server.handlers import register

        register(self)

    # -- capabilities ------------------------------------------------------------------------
    def capability(self, path: str, default: Any = None) -> Any:
        return get_capability(self.client_capabilities, path, default)

    def configure_from_initialize(self, params: types.InitializeParams) -> None:
        self.collector.start()
        encoding = ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities)
        self._encoding = str(getattr(encoding, "value", encoding) or UTF16)
        self._locale = params.locale
        self._init_options = params.initialization_options
        self.pull_diagnostics = self.capability("text_document.diagnostic") is not None

    @property
    def docs(self) -> Workspace:
        """The open documents and their analyzers (created, with the settings, on first use)."""
        if self._docs is None:
            from tflsp.codecache import generated_code

            # The analyzer, the settings and the detectors, before the first analysis.
            with generated_code("analysis"):
                from tflsp.analysis.registry import all_detectors
                from tflsp.server.config import editor_section
                from tflsp.server.workspace import Workspace

                # A detector that cannot be imported is reported by warm_up (once) and by
                # each analysis; the documents are kept all the same.
                with contextlib.suppress(Exception):
                    all_detectors()
            docs = Workspace(encoding=self._encoding)
            docs.settings.locale = self._locale
            section = editor_section(self._init_options)
            if section:
                docs.settings.set_editor(section)
            self._docs = docs
        return self._docs

    # -- document sync (called by TflspProtocol) -----------------------------------------------
    def on_did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        fault_point(types.TEXT_DOCUMENT_DID_OPEN)
        target = self.docs.open_text(item.uri, item.version, item.text, item.language_id)
        self.schedule(target.key, opened=True)

    def on_did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        fault_point(types.TEXT_DOCUMENT_DID_CHANGE)
        changes = [structure_change(c) for c in params.content_changes]
        target = self.docs.change_text(
            params.text_document.uri, params.text_document.version, changes
        )
        if target is not None:
            self.schedule(target.key)

    def on_did_close(self, uri: str) -> None:
        target = self.docs.close(uri)
        if target is None:
            return
        self.closed_count += 1
        self._dirty.pop(uri, None)
        self._notices.pop(uri, None)
        self.verification.pins.forget(target.key)
        if not self.pull_diagnostics:
            for cell_uri in dict.fromkeys([*target.published, *target.uris()]):
                send_raw(self.protocol, publish_body(cell_uri, None, []))
        self.collector.closed()

    def busy(self) -> bool:
        """Work is waiting: edits not analysed yet, or messages not read yet."""
        return bool(self._dirty) or (self.watch is not None and self.watch.pending())

    def on_notebook_open(self, params: types.DidOpenNotebookDocumentParams) -> None:
        texts = {item.uri: item for item in params.cell_text_documents}
        cells = [self._cell(c, texts.get(c.document)) for c in params.notebook_document.cells]
        target = self.docs.open_notebook(
            params.notebook_document.uri, params.notebook_document.version, cells
        )
        self.schedule(target.key, opened=True)

    def on_notebook_change(self, params: types.DidChangeNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        change = params.change.cells
        structure = None
        kinds: dict[str, int] = {}
        text_changes: dict[str, tuple[int | None, list[Any]]] = {}
        closed: list[str] = []
        if change is not None:
            if change.structure is not None:
                opened = {item.uri: item for item in change.structure.did_open or []}
                closed = [item.uri for item in change.structure.did_close or []]
                current = self.docs.targets.get(uri)
                # Cells already in the notebook, and cells taken out of it whose text document
                # is still open (a move sent as a removal, then an insertion): both keep
                # their text.
                known = current.notebook.known_cells() if current and current.notebook else {}
                new_cells = []
                for cell in change.structure.array.cells or []:
                    if cell.document in opened or cell.document not in known:
                        if cell.document not in opened:
                            log.warning("notebook cell %s added without its text", cell.document)
                        new_cells.append(self._cell(cell, opened.get(cell.document)))
                    else:
                        new_cells.append(known[cell.document])
                array = change.structure.array
                structure = (array.start, array.delete_count, new_cells)
            for cell in change.data or []:
                kinds[cell.document] = int(cell.kind)
            for content in change.text_content or []:
                text_changes[content.document.uri] = (
                    content.document.version,
                    [structure_change(c) for c in content.changes],
                )
        target = self.docs.change_notebook(
            uri, params.notebook_document.version, structure, kinds, text_changes, closed
        )
        if target is not None:
            self.schedule(target.key)

    @staticmethod
    def _cell(cell: types.NotebookCell, item: types.TextDocumentItem | None) -> Cell:
        return Cell(
            uri=cell.document,
            kind=int(cell.kind),
            buffer=TextBuffer(item.text if item is not None else ""),
            language_id=item.language_id if item is not None else "python",
            version=item.version if item is not None else None,
        )

    # -- diagnostics scheduling ------------------------------------------------------------------
    def schedule(self, key: str, opened: bool = False) -> None:
        self._dirty[key] = None
        if self._flush_handle is not None:
            return
        loop = asyncio.get_event_loop()
        delay = self._delay_for(key)
        if delay > 0 and not opened:
            self._flush_handle = loop.call_later(delay, self._flush)
        else:
            self._flush_handle = loop.call_soon(self._flush)

    def _delay_for(self, key: str) -> float:
        target = self.docs.targets.get(key)
        settings = target.settings if target is not None else None
        return settings.diagnostics_delay / 1000 if settings is not None else 0.0

    def _flush(self) -> None:
        self._flush_handle = None
        loop = asyncio.get_event_loop()
        if self.watch is not None and self.watch.pending():
            now = time.monotonic()
            if self._deferred_since is None:
                self._deferred_since = now
            if now - self._deferred_since < _MAX_DEFERRAL:
                # Newer edits are already arriving: analyse once they are applied.
                self._flush_handle = loop.call_later(0.0005, self._flush)
                return
        self._deferred_since = None
        dirty, self._dirty = self._dirty, {}
        for key in dirty:
            target = self.docs.targets.get(key)
            if target is None:
                continue
            try:
                self.refresh(target)
            except Exception:
                log.exception("could not publish diagnostics for %s", key)

    def refresh(self, target: Target) -> None:
        """Analyse if needed, then push diagnostics (push mode) for every URI of ``target``."""
        first = target.analysed_revision < 0
        began = time.perf_counter()
        analysed = self.docs.analyse(target)
        if analysed and log.isEnabledFor(logging.DEBUG):
            log.debug(
                "analysed %s v%s in %.2f ms: %d diagnostics",
                target.key,
                target.version,
                (time.perf_counter() - began) * 1000,
                len(target.rendered),
            )
        self._show_problems(target)
        if not self.pull_diagnostics:
            self._publish(target)
        self.collector.analysed(opened=first)

    def _publish(self, target: Target) -> None:
        by_uri: dict[str, list[Any]] = {uri: [] for uri in target.uris()}
        # Cells removed from the notebook or no longer Python: clear what they showed.
        for uri in target.published:
            if uri not in by_uri:
                send_raw(self.protocol, publish_body(uri, None, []))
        target.published = list(by_uri)
        for item in target.rendered:
            by_uri.setdefault(item.uri, []).append(item)
        for pinned in self.verification.pins.rendered(target, self.docs.encoding):
            by_uri.setdefault(pinned.uri, []).append(pinned)
        for uri, items in by_uri.items():
            version = target.version_of(uri)
            send_raw(self.protocol, publish_body(uri, version, items))

    def _show_problems(self, target: Target) -> None:
        problems = self.docs.settings.problems
        while problems:
            self.show(problems.pop(0), types.MessageType.Warning)
        notice = target.notice
        if notice and self._notices.get(target.key) != notice:
            self._notices[target.key] = notice
            name = target.path.name if target.path is not None else target.key
            self.show(
                text("skipped", target.lang, name=name, reason=notice), types.MessageType.Info
            )

    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def background(self, job: Coroutine[Any, Any, Any]) -> None:
        """Run ``job`` on the loop; keep a reference until it ends, log its failure."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)

        def done(finished: asyncio.Future[Any]) -> None:
            self._tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("background job failed: %s", finished.exception())

        task.add_done_callback(done)

    def fresh_target(self, uri: str) -> Target | None:
        """The target holding ``uri``, analysed up to its latest edit (requests need that)."""
        target = self.docs.target_for(uri)
        if target is not None:
            self.docs.analyse(target)
        return target

    def settings_changed(self) -> None:
        self.docs.invalidate_settings()
        self.verification.configure()
        for key in list(self.docs.targets):
            self.schedule(key)
        if self.pull_diagnostics and self.capability("workspace.diagnostics.refresh_support"):
            self.workspace_diagnostic_refresh(None)
        if self.capability("workspace.code_lens.refresh_support"):
            self.workspace_code_lens_refresh(None)


def guarded(method: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Log a handler's crash and answer the request with an InternalError; never die."""

    if asyncio.iscoroutinefunction(fn):

        async def run_async(*args: Any) -> Any:
            try:
                fault_point(method)
                return await fn(*args)
            except JsonRpcException:
                raise
            except Exception as exc:
                log.exception("%s failed", method)
                raise JsonRpcInternalError(f"{method} failed: {exc}") from exc

        run_async.__name__ = fn.__name__
        return run_async

    def run(*args: Any) -> Any:
        try:
            fault_point(method)
            return fn(*args)
        except JsonRpcException:
            raise
        except Exception as exc:
            log.exception("%s failed", method)
            raise JsonRpcInternalError(f"{method} failed: {exc}") from exc

    run.__name__ = fn.__name__
    return run
