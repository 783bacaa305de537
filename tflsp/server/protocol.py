"""pygls protocol subclass: text and notebook sync go to tflsp's own document store.

pygls keeps its own copy of every document and re-splits the whole text on each incremental
change; tflsp needs its line-based buffers anyway, so the built-in sync handlers are replaced
instead of duplicated.  Results marked :class:`RawResult` are already JSON-ready and skip the
cattrs round trip.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

from tflsp.server.transport import send_json

if TYPE_CHECKING:
    from tflsp.server.server import TflspServer

log = logging.getLogger(__name__)

# Error answers the server gives on purpose (a refused or cancelled verifier run, bad command
# arguments).  pygls logs every error answer with a traceback at ERROR level; for these that
# is noise in the editor's output channel, so they become one INFO line.
_EXPECTED_ERRORS = frozenset({-32602, -32800, -32803})  # InvalidParams, Cancelled, Failed


class _ExpectedErrorFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, JsonRpcException) and exc.code in _EXPECTED_ERRORS:
            record.msg = "request answered with error %s: %s"
            record.args = (exc.code, exc.message)
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            # The logger's own threshold was checked before filters ran; apply it again.
            return logging.getLogger(record.name).getEffectiveLevel() <= logging.INFO
        return True


def quiet_expected_errors() -> None:
    """Install the filter once on pygls' JSON-RPC logger."""
    pygls_log = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, _ExpectedErrorFilter) for f in pygls_log.filters):
        pygls_log.addFilter(_ExpectedErrorFilter())


class RawResult:
    """A request result that is already made of JSON types (dicts, lists, str, numbers)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class TflspProtocol(LanguageServerProtocol):
    _server: TflspServer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        quiet_expected_errors()
        # Keyed by request id, for long-running commands (the verifier): the workDoneToken the
        # client sent with executeCommand, and what to call when the client cancels it.
        # pygls cancels only the request's outer future on $/cancelRequest, not the coroutine
        # running the command.
        self.work_done_tokens: dict[Any, Any] = {}
        self.cancel_hooks: dict[Any, Callable[[], None]] = {}

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        super()._handle_cancel_notification(msg_id)
        hook = self.cancel_hooks.pop(msg_id, None)
        if hook is not None:
            hook()

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(
        self, params: types.ExecuteCommandParams
    ) -> Generator[Any, Any, Any]:
        msg_id = self.msg_id
        if params.work_done_token is not None and msg_id is not None:
            self.work_done_tokens[msg_id] = params.work_done_token
        try:
            return (yield from super().lsp_workspace__execute_command(params))
        finally:
            self.work_done_tokens.pop(msg_id, None)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, RawResult):
            self._result_types.pop(msg_id, None)
            send_json(self, {"jsonrpc": "2.0", "id": msg_id, "result": result.value})
            return
        super()._send_response(msg_id, result, error)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self._server.on_did_open(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._server.on_did_change(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self._server.on_did_close(params.text_document.uri)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def lsp_notebook_document__did_open(self, params: types.DidOpenNotebookDocumentParams) -> None:
        self._server.on_notebook_open(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(
        self, params: types.DidChangeNotebookDocumentParams
    ) -> None:
        self._server.on_notebook_change(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(
        self, params: types.DidCloseNotebookDocumentParams
    ) -> None:
        self._server.on_did_close(params.notebook_document.uri)
