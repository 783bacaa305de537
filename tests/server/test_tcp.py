"""``tflsp serve --tcp HOST:PORT`` speaks the same protocol over a socket."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.timeout(60)

SOURCE = "import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    print(x)\n    return x\n"


def frame(payload: dict[str, object]) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(sock: socket.socket, buffer: bytearray) -> dict[str, object]:
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            header = bytes(buffer[:end]).decode()
            length = int(re.search(r"Content-Length: (\d+)", header).group(1))  # type: ignore[union-attr]
            if len(buffer) >= end + 4 + length:
                body = bytes(buffer[end + 4 : end + 4 + length])
                del buffer[: end + 4 + length]
                return json.loads(body)  # type: ignore[no-any-return]
        chunk = sock.recv(1 << 16)
        assert chunk, "the server closed the connection"
        buffer.extend(chunk)


def test_tcp_transport() -> None:
    env = {**os.environ, "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tflsp", "serve", "--tcp", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert match, line
        sock = socket.create_connection(("127.0.0.1", int(match.group(1))), timeout=30)
        buffer = bytearray()
        sock.sendall(
            frame(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
            )
        )
        answer = read_message(sock, buffer)
        assert answer["id"] == 1 and "capabilities" in answer["result"]  # type: ignore[operator]
        sock.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        uri = "file:///tcp/model.py"
        sock.sendall(
            frame(
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/didOpen",
                    "params": {
                        "textDocument": {
                            "uri": uri,
                            "languageId": "python",
                            "version": 1,
                            "text": SOURCE,
                        }
                    },
                }
            )
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = read_message(sock, buffer)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                assert [d["code"] for d in params["diagnostics"]] == ["TFL101"]  # type: ignore[index]
                break
        else:
            pytest.fail("no diagnostics over TCP")
        sock.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        while read_message(sock, buffer).get("id") != 2:
            pass
        sock.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
        assert process.wait(timeout=20) == 0
        sock.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_stdin_from_a_regular_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Not a pipe (``tflsp serve < session.jsonrpc``): the fallback reader thread serves it."""
    uri = "file:///file/model.py"
    session = b"".join(
        frame(message)
        for message in [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "python",
                        "version": 1,
                        "text": SOURCE,
                    }
                },
            },
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "textDocument/codeLens",
                "params": {"textDocument": {"uri": uri}},
            },
            {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"},
        ]
    )
    script = tmp_path / "session.jsonrpc"
    script.write_bytes(session)
    with script.open("rb") as stdin:
        completed = subprocess.run(
            [sys.executable, "-m", "tflsp", "serve"],
            stdin=stdin,
            capture_output=True,
            timeout=60,
            env={**os.environ, "LANG": "C.UTF-8"},
        )
    assert completed.returncode == 0, completed.stderr.decode()[-2000:]
    bodies = re.split(rb"Content-Length: \d+\r\n(?:[^\r\n]+\r\n)*\r\n", completed.stdout)
    messages = [json.loads(body) for body in bodies if body]
    answers = {m["id"]: m for m in messages if "id" in m and "method" not in m}
    assert set(answers) >= {1, 2, 3}
    assert [lens["command"]["command"] for lens in answers[2]["result"]] == ["tflsp.verifyFunction"]
