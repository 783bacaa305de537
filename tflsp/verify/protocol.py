"""The worker's wire format: JSON-RPC 2.0 messages, one JSON document per line.

Newline-delimited JSON keeps both ends trivial (``readline`` + ``json.loads``) and cannot be
confused by anything the worker's user code prints, because the worker writes the protocol to
a private duplicate of its original stdout while fd 1 points at stderr (see
:mod:`tflsp.verify.worker`).  ``json.dumps`` escapes newlines inside strings, so a message
never spans two lines.

Requests (client -> worker) carry an ``id``; the worker answers each with a ``result`` or an
``error``.  While a request runs, the worker may send ``progress`` notifications (no ``id``)
so a caller can show work-done progress.
"""

from __future__ import annotations

import json
from typing import Any

# Methods the worker understands.
INITIALIZE = "initialize"
RUN_PROGRAM = "run_program"
PROBE = "probe"
PING = "ping"
SHUTDOWN = "shutdown"
# Notification sent by the worker while a request runs.
PROGRESS = "progress"

# JSON-RPC error codes.  The -32000 range is ours.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
USER_CODE_ERROR = -32000  # the code under test could not even be loaded (syntax error, ...)
TENSORFLOW_MISSING = -32001  # TensorFlow (or tf-keras for Keras 2) is not installed

MAX_LINE = 64 * 1024 * 1024  # a single message larger than this is a bug, not data


class ProtocolError(ValueError):
    """A line that is not a well-formed message."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a UTF-8 line.  Non-finite floats become null (JSON has no NaN)."""
    return (json.dumps(_finite(message), ensure_ascii=False, separators=(",", ":")) + "\n").encode(
        "utf-8"
    )


def decode(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"not a JSON line: {line[:200]!r}") from exc
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise ProtocolError(f"not a JSON-RPC 2.0 message: {line[:200]!r}")
    return message


def request(request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}


def response(request_id: int | None, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error(
    request_id: int | None, code: int, message: str, data: Any | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def _finite(value: Any) -> Any:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
