"""The verifier's settings through a real server, without TensorFlow: turned off (as in an
untrusted VS Code workspace) it refuses every command and never starts a worker; a broken
interpreter gives a clear error."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.raw import RawServer

pytestmark = pytest.mark.timeout(120)

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    class Scale(keras.layers.Layer):
        def call(self, x):
            return x * 2


    @tf.function
    def step(x):
        return x + 1
    """
)
REQUEST_FAILED = -32803
INVALID_PARAMS = -32602


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (the verifier worker would be one)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to see the server's child processes")
    server = RawServer()
    server.root = tmp_path_factory.mktemp("verifier-settings")  # type: ignore[attr-defined]
    server.initialize(
        {"window": {"workDoneProgress": True}},
        initializationOptions={"tflsp": {"verifier": {"enabled": False}}},
    )
    yield server
    server.shutdown()


def execute(raw: RawServer, command: str, arguments: list[Any]) -> dict[str, Any]:
    return raw.request(
        "workspace/executeCommand", {"command": command, "arguments": arguments}, timeout=60
    )


def test_the_server_announces_the_disabled_verifier(raw: RawServer) -> None:
    message = raw.wait_notification("tflsp/verifierState")
    assert message["params"]["state"] == "disabled"


def test_a_disabled_verifier_refuses_every_command_and_starts_no_worker(raw: RawServer) -> None:
    uri = (raw.root / "model.py").as_uri()  # type: ignore[attr-defined]
    raw.open(uri, SOURCE)
    raw.diagnostics(uri, 1)
    lenses = raw.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
    assert lenses["result"] == []  # every lens would run the verifier
    for command, arguments in [
        ("tflsp.verifyClass", [uri, "Scale", 4]),
        ("tflsp.verifyFunction", [uri, "step", 9]),
        ("tflsp.verifyCatalog", ["TFL101"]),
        ("tflsp.restartVerifier", []),
    ]:
        answer = execute(raw, command, arguments)
        assert answer["error"]["code"] == REQUEST_FAILED, answer
        assert "turned off" in answer["error"]["message"]
        assert answer["error"]["data"]["state"] == "disabled"
        shown = raw.wait_notification("window/showMessage", timeout=10)
        assert shown["params"]["type"] == 2 and "turned off" in shown["params"]["message"]
    assert children(raw.process.pid) == []
    # A refusal is an answer, not a server error: no traceback in the editor's log.
    assert "Traceback" not in raw.stderr_text(), raw.stderr_tail()


def test_turning_it_on_brings_the_lenses_back_without_starting_a_worker(raw: RawServer) -> None:
    uri = (raw.root / "model.py").as_uri()  # type: ignore[attr-defined]
    raw.notify(
        "workspace/didChangeConfiguration",
        {"settings": {"tflsp": {"verifier": {"enabled": True}}}},
    )
    state = raw.wait_notification("tflsp/verifierState", timeout=10)
    assert state["params"]["state"] == "stopped"
    lenses = raw.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
    assert [lens["command"]["arguments"][1] for lens in lenses["result"]] == ["Scale", "step"]
    assert children(raw.process.pid) == []


def test_bad_arguments_are_invalid_params(raw: RawServer) -> None:
    uri = (raw.root / "model.py").as_uri()  # type: ignore[attr-defined]
    for arguments, text in [
        ([uri, "Scale"], "expected arguments"),
        ([uri, "Scale", "4"], "line must be an integer"),
        ([uri, "Scale", 4, ["speed"]], "unknown probe"),
        (["file:///not/open.py", "Scale", 4], "not open"),
    ]:
        answer = execute(raw, "tflsp.verifyClass", arguments)
        assert answer["error"]["code"] == INVALID_PARAMS, answer
        assert text in answer["error"]["message"]
    answer = execute(raw, "tflsp.verifyCatalog", ["TFL999"])
    assert answer["error"]["code"] == INVALID_PARAMS
    assert "unknown pattern selector" in answer["error"]["message"]
    assert children(raw.process.pid) == []
    assert "Traceback" not in raw.stderr_text(), raw.stderr_tail()


def test_an_interpreter_that_does_not_exist_gives_a_clear_error(raw: RawServer) -> None:
    uri = (raw.root / "model.py").as_uri()  # type: ignore[attr-defined]
    raw.notify(
        "workspace/didChangeConfiguration",
        {"settings": {"tflsp": {"verifier": {"enabled": True}, "verifierPython": "/no/python"}}},
    )
    answer = execute(raw, "tflsp.verifyClass", [uri, "Scale", 4])
    error = answer["error"]
    assert error["code"] == REQUEST_FAILED
    assert "could not start" in error["message"] and "/no/python" in error["message"]
    assert error["data"]["state"] == "failed"
    shown = raw.wait_notification("window/showMessage", lambda p: p["type"] == 1, timeout=10)
    assert "/no/python" in shown["params"]["message"]
    raw.wait_notification("tflsp/verifierState", lambda p: p["state"] == "failed", timeout=10)
