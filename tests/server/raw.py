"""A raw JSON-RPC client over the server's stdio, for what pytest-lsp cannot send: bytes that
are not valid messages, bursts without waiting, and precise timing."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class RawServer:
    def __init__(self, env: dict[str, str] | None = None, args: list[str] | None = None) -> None:
        full_env = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
        # A file, not a pipe: nobody drains stderr while a test runs, and a full pipe would
        # block the server.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - read back by stderr_text()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tflsp", "serve", *(args or [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=full_env,
            cwd=str(ROOT),
        )
        self._buffer = b""
        self._next_id = 0
        self.notifications: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []  # server -> client requests

    # -- writing -----------------------------------------------------------------------------
    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, payload: Any) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Any = None, timeout: float = 20) -> dict[str, Any]:
        msg_id = self.request_id()
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.response(msg_id, timeout)

    # -- reading -----------------------------------------------------------------------------
    def _read_message(self, timeout: float) -> dict[str, Any] | None:
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = 0
                for line in self._buffer[:end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if len(self._buffer) >= end + 4 + length:
                    body = self._buffer[end + 4 : end + 4 + length]
                    self._buffer = self._buffer[end + 4 + length :]
                    return json.loads(body)  # type: ignore[no-any-return]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self._buffer += chunk

    def next_message(self, timeout: float = 20) -> dict[str, Any] | None:
        message = self._read_message(timeout)
        if message is None:
            return None
        if "method" in message and "id" in message:
            self.requests.append(message)
            # Answer the server's own requests (showDocument, registerCapability, ...).
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "method" in message:
            self.notifications.append(message)
        return message

    def response(self, msg_id: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.next_message(deadline - time.monotonic())
            if message is None:
                break
            if message.get("id") == msg_id and "method" not in message:
                return message
        raise AssertionError(f"no response to request {msg_id!r}; stderr: {self.stderr_tail()}")

    def wait_notification(
        self, method: str, predicate: Any = None, timeout: float = 20
    ) -> dict[str, Any]:
        for seen in self.notifications:
            if seen["method"] == method and (predicate is None or predicate(seen["params"])):
                self.notifications.remove(seen)
                return seen
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.next_message(deadline - time.monotonic())
            if message is None:
                break
            if (
                message.get("method") == method
                and "id" not in message
                and (predicate is None or predicate(message["params"]))
            ):
                self.notifications.remove(message)
                return message
        raise AssertionError(f"no {method} notification; stderr: {self.stderr_tail()}")

    def diagnostics(self, uri: str, version: int | None, timeout: float = 20) -> list[Any]:
        message = self.wait_notification(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and p.get("version") == version,
            timeout,
        )
        return message["params"]["diagnostics"]  # type: ignore[no-any-return]

    # -- lifecycle -----------------------------------------------------------------------------
    def initialize(
        self, capabilities: dict[str, Any] | None = None, **params: Any
    ) -> dict[str, Any]:
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": None,
                "capabilities": capabilities or {},
                **params,
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "python",
                    "version": version,
                    "text": text,
                }
            },
        )

    def alive(self) -> bool:
        """The server still answers a request."""
        answer = self.request("textDocument/codeLens", {"textDocument": {"uri": "file:///ping.py"}})
        return "result" in answer

    def shutdown(self) -> int:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit")
            return self.process.wait(timeout=10)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        # stderr_text() still works after close(); the file goes away with the object.

    def stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def stderr_tail(self) -> str:
        return self.stderr_text()[-2000:]
