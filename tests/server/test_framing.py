"""JSON-RPC framing and message validation (lsp-audit bugs 10 and 11): one bad frame costs
that frame only, unknown methods and id-only objects get the errors the specification names,
and a held ``workspace/diagnostic`` returns when a document closes."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import pytest

from tests.server.raw import RawServer
from tflsp.server.transport import FrameParser

pytestmark = pytest.mark.timeout(120)


def frame(payload: object) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
# Bad frames, each followed by good ones in the tests below.
BAD_FRAMES = [
    b"Content-Type: application/json\r\n\r\n{}",  # no Content-Length
    b"Content-Length: abc\r\n\r\n{}",  # not a number
    b"Content-Length: 500\r\n\r\n{}",  # longer than what follows before the next frame
    b"Content-Length: 2\r\n\r\n{}}}}",  # junk after the body
    b"garbage\r\n",
]


# -- the parser alone ------------------------------------------------------------------------
def parse(stream: bytes, chunk: int | None = None) -> list[bytes]:
    bodies: list[bytes] = []
    parser = FrameParser(bodies.append)
    if chunk is None:
        parser.feed(stream)
    else:
        for start in range(0, len(stream), chunk):
            parser.feed(stream[start : start + chunk])
    return bodies


@pytest.mark.parametrize("bad", BAD_FRAMES)
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_the_parser_resynchronises_after_a_bad_frame(bad: bytes, chunk: int | None) -> None:
    good = [
        {"jsonrpc": "2.0", "id": i, "method": "ping", "params": {"s": "x" * i}} for i in range(3)
    ]
    stream = bad + b"".join(frame(message) for message in good)
    decoded = []
    for body in parse(stream, chunk):
        try:
            decoded.append(json.loads(body))
        except ValueError:
            continue  # the bad frame's own body: answered with a parse error by the dispatcher
    assert decoded[-3:] == good


def test_bodies_that_only_look_like_headers_are_kept() -> None:
    # A JSON string cannot hold a raw CR LF, so header text inside strings is just text.
    message = {"jsonrpc": "2.0", "method": "x", "params": {"text": "Content-Length: 12\r\n\r\n"}}
    pretty = (
        json.dumps(message, indent=2).replace("\n", "\r\n").encode()
    )  # raw CR LF between tokens
    stream = frame(message) + b"Content-Length: %d\r\n\r\n" % len(pretty) + pretty
    assert [json.loads(b) for b in parse(stream, 5)] == [message, message]


def test_random_chunks_of_a_long_valid_stream() -> None:
    rng = random.Random(3)
    messages = [
        {"jsonrpc": "2.0", "id": i, "method": "m", "params": {"t": "é" * rng.randint(0, 300)}}
        for i in range(200)
    ]
    stream = b"".join(frame(m) for m in messages)
    bodies: list[bytes] = []
    parser = FrameParser(bodies.append)
    position = 0
    while position < len(stream):
        step = rng.randint(1, 900)
        parser.feed(stream[position : position + step])
        position += step
    assert [json.loads(b) for b in bodies] == messages


# -- the real server --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize({"window": {"showDocument": {"support": False}}})
    yield raw
    assert raw.shutdown() == 0, raw.stderr_tail()


@pytest.mark.parametrize("bad", BAD_FRAMES)
def test_the_server_answers_after_a_bad_frame(server: RawServer, bad: bytes) -> None:
    server.send_bytes(bad)
    assert server.alive()
    assert server.alive()


def test_a_frame_longer_than_its_body_does_not_swallow_the_next_request(server: RawServer) -> None:
    # Sent in one write: the declared length covers the next frame's bytes.
    msg_id = server.request_id()
    hover = {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "textDocument/codeLens",
        "params": {"textDocument": {"uri": "file:///nothing.py"}},
    }
    server.send_bytes(b"Content-Length: 90\r\n\r\n{}" + frame(hover))
    assert server.response(msg_id, timeout=10)["result"] == []


def test_unknown_request_without_params_is_method_not_found(server: RawServer) -> None:
    msg_id = server.request_id()
    server.send({"jsonrpc": "2.0", "id": msg_id, "method": "no/such"})
    assert server.response(msg_id)["error"]["code"] == -32601
    assert server.alive()


def test_an_id_without_method_is_an_invalid_request(server: RawServer) -> None:
    server.send({"jsonrpc": "2.0", "id": 5002, "x": 1})
    assert server.response(5002)["error"]["code"] == -32600
    assert server.alive()


def test_a_held_workspace_diagnostic_returns_at_did_close() -> None:
    raw = RawServer()
    try:
        raw.initialize(
            {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {}}},
        )
        uri = "file:///held.py"
        raw.open(uri, "x = 1\n")
        first = raw.request("workspace/diagnostic", {"previousResultIds": []})
        (item,) = first["result"]["items"]
        msg_id = raw.request_id()
        raw.send(
            {
                "jsonrpc": "2.0",
                "id": msg_id,
                "method": "workspace/diagnostic",
                "params": {"previousResultIds": [{"uri": uri, "value": item["resultId"]}]},
            }
        )
        time.sleep(0.5)  # the request is held: nothing changed
        began = time.monotonic()
        raw.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        answer = raw.response(msg_id, timeout=10)
        assert time.monotonic() - began < 5
        assert answer["result"] == {"items": []}
    finally:
        raw.shutdown()


def test_writes_after_the_client_closed_stdout_are_dropped() -> None:
    """A publish on its way when the client closes the pipe (a restart) must not raise:
    pygls answers a failed write with an error message on the same closed stream, and a
    restart in VS Code logged tens of thousands of tracebacks that way."""
    import io

    from tflsp.server.transport import StdoutWriter

    stream = io.BytesIO()
    writer = StdoutWriter(stream)
    writer.write(b"Content-Length: 2\r\n\r\n{}")
    assert stream.getvalue().endswith(b"{}")
    stream.close()
    writer.write(b"Content-Length: 2\r\n\r\n{}")  # ValueError: I/O operation on closed file
    writer.write(b"more")
    assert writer.gone
