"""The real server process keeps running and answering whatever it is sent."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest

from tests.server.raw import RawServer

pytestmark = pytest.mark.timeout(120)

BAD = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        return x
    """
)


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize({"window": {"showDocument": {"support": False}}})
    yield raw
    assert raw.shutdown() == 0, raw.stderr_tail()


def test_invalid_json_gets_a_parse_error(server: RawServer) -> None:
    body = b'{"jsonrpc": "2.0", "id": 5, "method": '
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    answer = server.response(None)
    assert answer["error"]["code"] == -32700
    assert server.alive()


@pytest.mark.parametrize(
    "payload", [[1, 2, 3], {"id": 7, "method": "textDocument/hover"}, "just a string", 42]
)
def test_non_jsonrpc_payloads_are_invalid_requests(server: RawServer, payload: object) -> None:
    server.send(payload)
    expected_id = payload.get("id") if isinstance(payload, dict) else None
    answer = server.response(expected_id)
    assert answer["error"]["code"] == -32600
    assert server.alive()


def test_garbage_bytes_and_bad_headers_are_skipped(server: RawServer) -> None:
    server.send_bytes(b"hello there\r\nX-Nothing: 1\r\n\r\n")
    server.send_bytes(b"Content-Length: banana\r\n\r\n")
    server.send_bytes(b"\x00\xff\xfe binary junk \r\n\r\n")
    assert server.alive()


def test_unknown_methods(server: RawServer) -> None:
    answer = server.request("tflsp/doesNotExist", {"x": 1})
    assert answer["error"]["code"] == -32601
    server.notify("tflsp/unknownNotification", {"x": 1})
    server.notify("$/somethingOptional", {})
    assert server.alive()


def test_invalid_params_are_answered(server: RawServer) -> None:
    answer = server.request("textDocument/hover", {"textDocument": {"uri": "file:///a.py"}})
    assert answer["error"]["code"] == -32602
    answer = server.request("textDocument/codeAction", "not an object")
    assert "error" in answer
    assert server.alive()


def test_requests_for_unknown_documents(server: RawServer) -> None:
    uri = "file:///never/opened.py"
    doc = {"textDocument": {"uri": uri}}
    position = {"line": 3, "character": 2}
    rng = {"start": position, "end": position}
    assert server.request("textDocument/hover", {**doc, "position": position})["result"] is None
    actions = server.request(
        "textDocument/codeAction", {**doc, "range": rng, "context": {"diagnostics": []}}
    )
    assert actions["result"] == []
    assert server.request("textDocument/codeLens", doc)["result"] == []
    report = server.request("textDocument/diagnostic", doc)["result"]
    assert report["items"] == []
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": rng, "text": "x"}],
        },
    )
    server.notify("textDocument/didClose", doc)
    assert server.alive()


def test_ten_megabyte_file_is_skipped_with_a_notice(server: RawServer) -> None:
    uri = "file:///big/huge.py"
    line = "x = [" + ", ".join(str(i) for i in range(30)) + "]\n"
    text = line * (10_000_000 // len(line) + 1)
    assert len(text) >= 10_000_000
    server.open(uri, text)
    assert server.diagnostics(uri, 1, timeout=60) == []
    notice = server.wait_notification(
        "window/showMessage", lambda p: "huge.py" in p["message"], timeout=60
    )
    assert "limit" in notice["params"]["message"]
    # Typing into it stays cheap and answered.
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": 5, "character": 0},
                        "end": {"line": 5, "character": 0},
                    },
                    "text": "y = 1\n",
                }
            ],
        },
    )
    assert server.diagnostics(uri, 2) == []
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.alive()


def test_binary_content(server: RawServer) -> None:
    uri = "file:///bin/blob.py"
    server.open(uri, "import os\x00\x01\x02\udcff\ud800 garbage \x7f\n" * 50)
    assert server.diagnostics(uri, 1) == []
    server.wait_notification("window/showMessage", lambda p: "blob.py" in p["message"])
    assert server.alive()


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
        "x = " + "[" * 5000 + "]" * 5000 + "\n",
        "x = " + "-" * 5000 + "1\n",
        "x = " + " + ".join(["1"] * 5000) + "\n",
        "def f():\n"
        + "".join("    " * (i + 1) + "if x:\n" for i in range(100))
        + "    " * 101
        + "pass\n",
    ],
    ids=["parens", "lists", "unary", "binop-chain", "deep-blocks"],
)
def test_deep_nesting(server: RawServer, text: str) -> None:
    uri = f"file:///deep/{abs(hash(text))}.py"
    server.open(uri, BAD + text)
    diagnostics = server.diagnostics(uri, 1, timeout=60)
    # The rest of the module is still analysed.
    assert "TFL101" in [d["code"] for d in diagnostics]
    hover = server.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 10}},
    )
    assert "result" in hover
    assert server.alive()


def test_thousand_change_burst(server: RawServer) -> None:
    uri = "file:///burst/typing.py"
    server.open(uri, BAD)
    server.diagnostics(uri, 1)
    count = 1000
    for i in range(count):
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": i + 2},
                "contentChanges": [
                    {
                        "range": {
                            "start": {"line": 7, "character": 0},
                            "end": {"line": 7, "character": 0},
                        },
                        "text": "#" if i % 50 == 49 else "\n" if i % 50 == 0 else "a",
                    }
                ],
            },
        )
    final = server.diagnostics(uri, count + 1, timeout=60)
    assert [d["code"] for d in final] == ["TFL101"]
    versions = [
        n["params"]["version"]
        for n in server.notifications
        if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri
    ]
    assert versions == sorted(versions)
    assert server.alive()


def test_exit_without_shutdown_exits_with_1() -> None:
    raw = RawServer()
    try:
        raw.initialize()
        raw.notify("exit")
        assert raw.process.wait(timeout=20) == 1
    finally:
        raw.close()


def test_closed_stdin_stops_the_server() -> None:
    raw = RawServer()
    try:
        raw.initialize()
        assert raw.process.stdin is not None
        raw.process.stdin.close()
        assert raw.process.wait(timeout=20) == 0
    finally:
        raw.close()


def test_exceptions_inside_handlers_are_answered_and_survived() -> None:
    faults = "textDocument/hover,textDocument/didOpen,tflsp.verifyClass,textDocument/codeLens"
    raw = RawServer(env={"TFLSP_FAULT_INJECTION": faults})
    try:
        raw.initialize()
        uri = "file:///fault/injected.py"
        position = {"line": 5, "character": 6}
        # didOpen raises: logged, reported, nothing published, server alive.
        raw.open(uri, BAD)
        message = raw.wait_notification("window/showMessage")
        assert "fault injected" in message["params"]["message"]
        hover = raw.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": position}
        )
        assert hover["error"]["code"] == -32603
        assert "fault injected" in hover["error"]["message"]
        lens = raw.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        assert lens["error"]["code"] == -32603
        command = raw.request(
            "workspace/executeCommand",
            {"command": "tflsp.verifyClass", "arguments": [uri, "X", 1]},
        )
        assert command["error"]["code"] == -32603
        # Other handlers still work, and the traceback went to the log.
        other = raw.request(
            "textDocument/diagnostic", {"textDocument": {"uri": "file:///fault/other.py"}}
        )
        assert other["result"]["items"] == []
        assert raw.shutdown() == 0
        assert "InjectedFault" in raw.stderr_text()
    finally:
        raw.close()
