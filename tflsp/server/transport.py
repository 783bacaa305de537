"""JSON-RPC framing on an asyncio transport, tolerant of bad input.

pygls reads stdin with one thread hop per header line and gives up on a request whose params
do not structure, leaving it unanswered.  This reader parses every complete message as soon
as bytes arrive, on the event loop, and answers what it cannot handle with the JSON-RPC error
the specification asks for (parse error, invalid request, invalid params).  Because all
messages already received are dispatched before the loop runs anything else, a burst of
``didChange`` notifications is applied in one go and analysed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import select
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.protocol import JsonRPCProtocol

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_HEADER_END = b"\r\n\r\n"
# Headers longer than this without a blank line are not headers: drop them.
_MAX_HEADER = 64 * 1024
_LENGTH_NAME = b"content-length:"
_LENGTH_NAME_RE = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
# A whole Content-Length header line, CR LF included.
_LENGTH_LINE_RE = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r\n", re.IGNORECASE)
_MAX_LENGTH_LINE = 64


class FrameParser:
    """Splits a byte stream into message bodies (``Content-Length`` framing).

    A bad frame costs that frame only: a header without a usable ``Content-Length`` is
    skipped up to the next ``Content-Length:`` header, and a body that turns out to contain
    a frame header (its ``Content-Length`` was larger than what the client sent) is dropped
    from that header on.  A valid JSON body never holds ``Content-Length: N`` followed by a raw
    CR LF: JSON strings cannot hold a raw CR, and outside strings the words are not JSON.
    """

    def __init__(self, on_body: Callable[[bytes], None]) -> None:
        self.on_body = on_body
        self._buffer = bytearray()
        self._offset = 0
        # How far the body being received was searched for a frame header (buffer index).
        self._scanned = 0

    @property
    def has_partial(self) -> bool:
        return self._offset < len(self._buffer)

    def feed(self, data: bytes) -> None:
        buffer = self._buffer
        buffer.extend(data)
        try:
            while True:
                start = self._offset
                end = buffer.find(_HEADER_END, start)
                if end < 0:
                    if len(buffer) - start > _MAX_HEADER:
                        log.warning("dropping %d bytes without a header end", len(buffer) - start)
                        self._resync(len(buffer) - len(_LENGTH_NAME))
                    return
                length = _content_length(bytes(buffer[start:end]))
                if length is None:
                    log.warning("frame header without a valid Content-Length skipped")
                    self._resync(start + 1)
                    continue
                body_start = end + len(_HEADER_END)
                body_end = body_start + length
                inner = self._header_inside(body_start, min(body_end, len(buffer)))
                if inner is not None:
                    log.warning(
                        "frame body shorter than its Content-Length (%d): resynchronised", length
                    )
                    self._offset = inner
                    self._scanned = 0
                    continue
                if len(buffer) < body_end:
                    return
                body = bytes(buffer[body_start:body_end])
                self._offset = body_end
                self._scanned = 0
                self.on_body(body)
        finally:
            if self._offset:
                del buffer[: self._offset]
                self._scanned = max(0, self._scanned - self._offset)
                self._offset = 0

    def _resync(self, position: int) -> None:
        """Skip to the next ``Content-Length:`` at or after ``position`` (or wait for it)."""
        buffer = self._buffer
        match = _LENGTH_NAME_RE.search(buffer, max(position, self._offset))
        if match is not None:
            self._offset = match.start()
        else:
            # Keep what could be the start of a header name cut by the end of the data.
            self._offset = max(self._offset, position, len(buffer) - len(_LENGTH_NAME) + 1)
        self._scanned = 0

    def _header_inside(self, body_start: int, limit: int) -> int | None:
        """Where a frame header starts inside ``buffer[body_start:limit]``, if one does.

        Each byte is searched once however many pieces a large body arrives in.
        """
        buffer = self._buffer
        position = max(body_start, self._scanned)
        while True:
            crlf = buffer.find(b"\r\n", position, limit)
            if crlf < 0:
                self._scanned = max(body_start, limit - 1)  # a CR at the end may lose its LF
                return None
            window = max(body_start, crlf - _MAX_LENGTH_LINE)
            ends_here = list(_LENGTH_LINE_RE.finditer(buffer, window, crlf + 2))
            if ends_here and ends_here[-1].end() == crlf + 2:
                return ends_here[-1].start()
            position = crlf + 1


def _content_length(headers: bytes) -> int | None:
    for line in headers.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if sep and name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return None
            return length if length >= 0 else None
    return None


class Dispatcher:
    """Turns message bodies into pygls messages, answering malformed ones itself."""

    def __init__(self, protocol: JsonRPCProtocol) -> None:
        self.protocol = protocol

    def __call__(self, body: bytes) -> None:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            log.warning("unparsable message: %s", exc)
            self._error(None, PARSE_ERROR, f"Parse error: {exc}")
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            msg_id = data.get("id") if isinstance(data, dict) else None
            self._error(msg_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 object")
            return
        msg_id = data.get("id")
        method = data.get("method")
        if method is None and "result" not in data and "error" not in data:
            # Neither a request, a notification nor a response.
            self._error(msg_id, INVALID_REQUEST, "Invalid Request: no method, result or error")
            return
        if method is not None and not isinstance(method, str):
            if msg_id is not None:
                self._error(msg_id, INVALID_REQUEST, "Invalid Request: method is not a string")
            return
        is_request = method is not None and msg_id is not None
        if method is not None and not self._known(method):
            # Unknown notifications are ignored ("$/" ones on purpose); requests get an error.
            if is_request:
                self._error(msg_id, METHOD_NOT_FOUND, f"Method not found: {method}")
            return
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException as exc:
            if is_request:
                self._error(msg_id, INVALID_PARAMS, f"Invalid params for {data['method']}: {exc}")
            else:
                log.warning("dropping malformed %s: %s", data.get("method", "message"), exc)
            return
        try:
            self.protocol.handle_message(message)
        except (SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:  # pygls answers most errors itself; this is the backstop
            log.exception("error while handling %s", data.get("method", "a response"))
            if is_request:
                self._error(msg_id, INTERNAL_ERROR, f"Internal error: {exc}")

    def _known(self, method: str) -> bool:
        """A method of the LSP specification, or one a handler was registered for."""
        if self.protocol.get_message_type(method) is not None:
            return True
        fm = getattr(self.protocol, "fm", None)
        return fm is not None and method in fm.features

    def _error(self, msg_id: Any, code: int, message: str) -> None:
        send_json(
            self.protocol,
            {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}},
        )


def send_json(protocol: JsonRPCProtocol, payload: dict[str, Any]) -> None:
    send_raw(protocol, json.dumps(payload, separators=(",", ":")))


def send_raw(protocol: JsonRPCProtocol, body: str) -> None:
    """Write one already-serialised message (``json.dumps`` output is ASCII)."""
    writer = protocol.writer
    if writer is None:
        return
    data = body.encode("utf-8")
    frame = b"Content-Length: %d\r\n\r\n" % len(data) + data
    writer.write(frame)  # both writers below are synchronous


class _StreamProtocol(asyncio.Protocol):
    def __init__(
        self,
        parser: FrameParser,
        closed: asyncio.Future[None],
        on_connect: Callable[[asyncio.BaseTransport], None] | None = None,
    ) -> None:
        self.parser = parser
        self.closed = closed
        self.on_connect = on_connect

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.on_connect is not None:
            self.on_connect(transport)

    def data_received(self, data: bytes) -> None:
        self.parser.feed(data)

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


class InputWatch:
    """Answers "are more messages already on their way?" so analysis can wait for them."""

    def __init__(self, parser: FrameParser, fd: int | None) -> None:
        self.parser = parser
        self.fd = fd
        # Chunks read by the fallback reader thread but not fed yet (an approximate count is
        # enough: it only delays analysis while input is arriving).
        self.scheduled = 0

    def pending(self) -> bool:
        if self.parser.has_partial or self.scheduled:
            return True
        if self.fd is None:
            return False
        try:
            readable, _, _ = select.select([self.fd], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(readable)


class StdoutWriter:
    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.gone = False

    def write(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            self.stream.write(data)
            self.stream.flush()
        except (OSError, ValueError):
            # The client closed our stdout (a restart, an exit while a publish was on its
            # way): nothing can reach it any more.  Raising would make pygls answer the failed
            # write with an error message, written to the same closed stream, and so on: a
            # restart in VS Code logged 55,000 lines of tracebacks this way.
            self.gone = True

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()


class TransportWriter:
    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self.transport = transport

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    def close(self) -> None:
        self.transport.close()


async def run_stdio(
    protocol: JsonRPCProtocol,
    stdin: BinaryIO,
    stdout: BinaryIO,
    on_watch: Callable[[InputWatch], None],
) -> None:
    """Serve one client on stdin/stdout until it closes the pipe or sends ``exit``."""
    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()
    parser = FrameParser(Dispatcher(protocol))
    protocol.set_writer(StdoutWriter(stdout))
    fd = stdin.fileno()
    watch = InputWatch(parser, fd)
    on_watch(watch)
    try:
        await loop.connect_read_pipe(lambda: _StreamProtocol(parser, closed), stdin)
    except (ValueError, OSError):
        # Not a pipe, socket or terminal (a regular file): read it on a thread instead.
        _start_reader_thread(loop, fd, parser, watch, closed)
    await closed


def _start_reader_thread(
    loop: asyncio.AbstractEventLoop,
    fd: int,
    parser: FrameParser,
    watch: InputWatch,
    closed: asyncio.Future[None],
) -> None:
    def feed(chunk: bytes) -> None:
        watch.scheduled -= 1
        parser.feed(chunk)

    def finish() -> None:
        if not closed.done():
            closed.set_result(None)

    def read() -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                loop.call_soon_threadsafe(finish)
                return
            watch.scheduled += 1
            loop.call_soon_threadsafe(feed, chunk)

    threading.Thread(target=read, name="tflsp-stdin", daemon=True).start()


async def run_tcp(
    protocol: JsonRPCProtocol,
    host: str,
    port: int,
    on_watch: Callable[[InputWatch], None],
    on_listening: Callable[[int], None] | None = None,
) -> None:
    """Serve the first client that connects to ``host:port`` until it disconnects."""
    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()
    parser = FrameParser(Dispatcher(protocol))

    def connected(transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        protocol.set_writer(TransportWriter(transport))
        sock = transport.get_extra_info("socket")
        on_watch(InputWatch(parser, sock.fileno() if sock is not None else None))

    def factory() -> asyncio.Protocol:
        return _StreamProtocol(parser, closed, connected)

    server = await loop.create_server(factory, host, port)
    if on_listening is not None:
        on_listening(server.sockets[0].getsockname()[1])
    try:
        await closed
    finally:
        server.close()


def real_stdout() -> BinaryIO:
    """Take stdout for the protocol; stray ``print`` calls go to stderr from now on."""
    stream = sys.stdout.buffer
    sys.stdout = sys.stderr
    widen_pipe(stream)
    return stream


def widen_pipe(stream: BinaryIO) -> None:
    """Let one publishDiagnostics (often more than the default 64 KiB) fit in the pipe.

    Otherwise the server blocks in ``write`` until the client has read the first part.
    Linux only; elsewhere, or when stdout is not a pipe, nothing changes.
    """
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is None:
        return
    with contextlib.suppress(OSError, ValueError):
        fcntl.fcntl(stream.fileno(), set_size, 1 << 20)
