"""The code-lens commands end to end: a real ``tflsp serve`` over stdio, a real TensorFlow worker.

One server (and so one worker, restarted where a test kills it) serves the whole module.
"""

from __future__ import annotations

import importlib.util
import json
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.raw import RawServer

pytestmark = [
    pytest.mark.tf,
    pytest.mark.timeout(240),
    pytest.mark.skipif(
        importlib.util.find_spec("tensorflow") is None,
        reason="TensorFlow is not installed (pip install 'tflsp[tf]')",
    ),
]

SOURCE = textwrap.dedent(
    """\
    import os
    import signal
    import time

    import tensorflow as tf
    from tensorflow import keras


    class Raw(keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
            self.scale = tf.Variable(2.0, name="scale")

        def call(self, x):
            return (x @ self.kernel) * self.scale


    class Good(keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")

        def call(self, x):
            return x @ self.kernel


    class Sleepy(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            time.sleep(float(os.environ.get("TFLSP_TEST_SLEEP", "2")))

        def call(self, x):
            return x


    class Crash(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        def call(self, x):
            return x


    @tf.function
    def step(x):
        print("tracing", x)
        return x * 2


    # tflsp: verify(nonsense=1)
    class Misdirected(keras.layers.Layer):
        def call(self, x):
            return x
    """
)
LINES = SOURCE.split("\n")
CANCELLED = -32800
REQUEST_FAILED = -32803


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(LINES) if line.startswith(text))


class Client(RawServer):
    """The raw client, answering ``window/showDocument`` like an editor that can show files
    and keeping responses that arrive while it waits for something else."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.responses: dict[Any, dict[str, Any]] = {}

    def next_message(self, timeout: float = 20) -> dict[str, Any] | None:
        message = self._read_message(timeout)
        if message is None:
            return None
        if "method" in message and "id" in message:
            self.requests.append(message)
            success = message["method"] == "window/showDocument"
            result = {"success": True} if success else None
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        elif "method" in message:
            self.notifications.append(message)
        else:
            self.responses[message.get("id")] = message
        return message

    def response(self, msg_id: Any, timeout: float = 20) -> dict[str, Any]:
        self.wait_for(lambda: msg_id in self.responses, timeout)
        return self.responses.pop(msg_id)

    def start(self, command: str, arguments: list[Any], **params: Any) -> int:
        msg_id = self.request_id()
        self.send(
            {
                "jsonrpc": "2.0",
                "id": msg_id,
                "method": "workspace/executeCommand",
                "params": {"command": command, "arguments": arguments, **params},
            }
        )
        return msg_id

    def run(self, command: str, arguments: list[Any], timeout: float = 120) -> dict[str, Any]:
        return self.response(self.start(command, arguments), timeout)

    def verify(self, name: str, *probes: str, timeout: float = 120) -> dict[str, Any]:
        arguments: list[Any] = [self.uri, name, line_of(f"class {name}")]
        if probes:
            arguments.append(list(probes))
        return self.run("tflsp.verifyClass", arguments, timeout)

    def published(self) -> list[dict[str, Any]]:
        """Every diagnostics publish for the document so far, oldest first (kept)."""
        return [
            n["params"]
            for n in self.notifications
            if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == self.uri
        ]

    def states(self) -> list[str]:
        return [
            n["params"]["state"] for n in self.notifications if n["method"] == "tflsp/verifierState"
        ]

    def progress(self, token: Any) -> list[dict[str, Any]]:
        return [
            n["params"]["value"]
            for n in self.notifications
            if n["method"] == "$/progress" and n["params"]["token"] == token
        ]

    def wait_for(self, predicate: Any, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; stderr: {self.stderr_tail()}")
            self.next_message(max(0.05, deadline - time.monotonic()))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    root = tmp_path_factory.mktemp("verifier")
    # The file is never written: the server verifies the editor's text.
    server = Client(env={"TFLSP_TEST_SLEEP": "4"})
    server.uri = (root / "layers.py").as_uri()  # type: ignore[attr-defined]
    server.initialize(
        {"window": {"workDoneProgress": True, "showDocument": {"support": True}}},
        initializationOptions={"tflsp": {"verifier": {"timeout": 60}}},
    )
    server.open(server.uri, SOURCE)
    server.diagnostics(server.uri, 1)
    yield server
    assert server.shutdown() == 0


def verify_items(
    diagnostics: list[dict[str, Any]], name: str | None = None
) -> list[dict[str, Any]]:
    return [
        d
        for d in diagnostics
        if d.get("source") == "tflsp-verify" and name in (None, d["data"]["verify"])
    ]


def test_raw_variable_on_keras3_is_untracked(client: Client) -> None:
    started = len(client.notifications)
    answer = client.verify("Raw")
    result = answer["result"]
    assert result["ok"] is False
    assert result["summary"].startswith("Raw: tracking FAILED, modes passed (TensorFlow 2.21")
    data = result["data"]
    assert data["kind"] == "layer" and data["keras"] == "3"
    tracking = data["results"][0]
    assert tracking["probe"] == "tracking" and tracking["observations"]["untracked"] == 1
    # The diagnostic: on the class name, an error, saying what happened.
    header = line_of("class Raw")
    untracked = [d for d in data["diagnostics"] if "not tracked" in d["message"]]
    assert len(untracked) == 1
    diagnostic = untracked[0]
    assert diagnostic["source"] == "tflsp-verify" and diagnostic["severity"] == 1
    assert diagnostic["range"] == {
        "start": {"line": header, "character": 6},
        "end": {"line": header, "character": 9},
    }
    assert diagnostic["message"].startswith("tracking: variable ")
    # The probe names the pattern it demonstrates: code and docs link like the analyzer's.
    assert diagnostic["code"] == "TFL301"
    assert "TFL301" in diagnostic["codeDescription"]["href"]
    related = diagnostic["relatedInformation"][0]["location"]
    assert related["range"]["start"]["line"] == line_of("        self.scale")
    # Published together with the analyzer's diagnostics.
    client.wait_for(lambda: any(verify_items(p["diagnostics"]) for p in client.published()))
    latest = client.published()[-1]["diagnostics"]
    assert verify_items(latest) == data["diagnostics"]
    assert any(d["source"] == "tflsp" for d in latest)
    # Progress: created by the server, begin -> reports -> end, cancellable.
    created = [r for r in client.requests if r["method"] == "window/workDoneProgress/create"]
    token = created[-1]["params"]["token"]
    values = client.progress(token)
    assert values[0]["kind"] == "begin" and values[0]["cancellable"] is True
    assert "Raw" in values[0]["title"]
    reports = [v["message"] for v in values if v["kind"] == "report"]
    assert any(m.startswith("tracking") for m in reports)
    assert any(m.startswith("modes") for m in reports)
    assert values[-1] == {"kind": "end", "message": result["summary"]}
    # The worker's life as the status bar sees it.
    states = [
        n["params"]["state"]
        for n in client.notifications[started:]
        if n["method"] == "tflsp/verifierState"
    ]
    assert states[:2] == ["starting", "ready"] and "busy" in states and states[-1] == "ready"
    # The readable report: returned, written, shown.
    assert result["report"].startswith("# tflsp verification: `Raw` — FAILED")
    report = Path(data["reportUri"].removeprefix("file://"))
    assert report.read_text(encoding="utf-8") == result["report"]
    client.wait_for(
        lambda: any(
            r["method"] == "window/showDocument" and r["params"]["uri"] == data["reportUri"]
            for r in client.requests
        )
    )


def test_good_layer_gets_a_clean_report(client: Client) -> None:
    result = client.verify("Good")["result"]
    assert result["ok"] is True
    assert [r["outcome"] for r in result["data"]["results"]] == ["pass", "pass"]
    diagnostics = result["data"]["diagnostics"]
    assert all(d["severity"] >= 3 for d in diagnostics)  # notes at most, no warning or error
    [hint] = [d for d in diagnostics if d["severity"] == 4]
    assert "tracking, modes passed" in hint["message"]
    assert "— passed" in result["report"].splitlines()[0]
    assert "**error**" not in result["report"] and "**warning**" not in result["report"]


def test_the_worker_gets_the_unsaved_text(client: Client) -> None:
    """Rename Good's weight in the editor only; the report shows the new name."""
    line = line_of("class Good") + 2
    column = LINES[line].index('name="kernel"') + len('name="')
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": client.uri, "version": 2},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": line, "character": column},
                        "end": {"line": line, "character": column + len("kernel")},
                    },
                    "text": "unsaved_kernel",
                }
            ],
        },
    )
    result = client.verify("Good", "tracking")["result"]
    names = [w["name"] for w in result["data"]["results"][0]["details"]["weights"]]
    assert names == ["good/unsaved_kernel"]


def test_an_edit_in_the_block_clears_its_result_and_an_edit_elsewhere_moves_it(
    client: Client,
) -> None:
    result = client.verify("Raw", "tracking")["result"]
    assert verify_items(result["data"]["diagnostics"])
    header = line_of("class Raw")
    # Two lines added at the top: the result moves down with its class.
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": client.uri, "version": 3},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": 0, "character": 0},
                        "end": {"line": 0, "character": 0},
                    },
                    "text": "# one\n# two\n",
                }
            ],
        },
    )
    moved = verify_items(client.diagnostics(client.uri, 3), "Raw")
    assert {d["range"]["start"]["line"] for d in moved} == {header + 2}
    # An edit inside Raw: its verifier result goes, the analyzer's diagnostics stay.
    line = header + 2 + 4
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": client.uri, "version": 4},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": line, "character": 0},
                        "end": {"line": line, "character": 0},
                    },
                    "text": "        # edited\n",
                }
            ],
        },
    )
    after = client.diagnostics(client.uri, 4)
    assert verify_items(after, "Raw") == []
    assert verify_items(after, "Good")  # another block's result stays
    assert any(d["source"] == "tflsp" for d in after)
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": client.uri, "version": 5},
            "contentChanges": [{"text": SOURCE}],
        },
    )
    client.diagnostics(client.uri, 5)


def test_function_lens_runs_the_modes_probe(client: Client) -> None:
    header = line_of("def step")
    answer = client.run("tflsp.verifyFunction", [client.uri, "step", header - 1])
    result = answer["result"]
    assert [r["probe"] for r in result["data"]["results"]] == ["modes"]
    assert result["ok"] is False
    printed = [d for d in result["data"]["diagnostics"] if "print" in d["message"]]
    assert printed and all(d["range"]["start"]["line"] == header for d in printed)
    assert printed[0]["range"]["start"]["character"] == len("def ")


def test_the_server_answers_while_a_probe_runs(client: Client) -> None:
    msg_id = client.start(
        "tflsp.verifyClass", [client.uri, "Sleepy", line_of("class Sleepy"), ["tracking"]]
    )
    client.wait_for(lambda: "busy" in client.states()[-1:])
    timings = []
    for method, params in [
        (
            "textDocument/hover",
            {
                "textDocument": {"uri": client.uri},
                "position": {"line": line_of('    print("tracing"'), "character": 5},
            },
        ),
        ("textDocument/diagnostic", {"textDocument": {"uri": client.uri}}),
        ("textDocument/codeLens", {"textDocument": {"uri": client.uri}}),
    ]:
        began = time.perf_counter()
        answer = client.request(method, params, timeout=10)
        timings.append(time.perf_counter() - began)
        assert "result" in answer, answer
    assert msg_id not in client.responses
    # The probe sleeps 4 s in the constructor; every answer came while it ran.
    assert max(timings) < 1.0, timings
    assert client.response(msg_id, 60)["result"]["ok"] is True


def _cancel_sleepy(client: Client, cancel: Any) -> None:
    client.notifications.clear()
    msg_id = client.start(
        "tflsp.verifyClass",
        [client.uri, "Sleepy", line_of("class Sleepy"), ["tracking"]],
    )
    client.wait_for(lambda: "busy" in client.states())
    began = time.perf_counter()
    cancel(msg_id)
    answer = client.response(msg_id, 30)
    assert answer["error"]["code"] == CANCELLED, answer
    assert time.perf_counter() - began < 5
    # The worker running it was killed; a fresh one starts at once and the next command works.
    client.wait_for(lambda: client.states()[-1:] == ["ready"] and "starting" in client.states())
    assert "failed" in client.states()
    assert client.verify("Good", "tracking")["result"]["ok"] is True


def test_cancel_request_stops_the_probe(client: Client) -> None:
    _cancel_sleepy(client, lambda msg_id: client.notify("$/cancelRequest", {"id": msg_id}))


def test_cancelling_the_progress_stops_the_probe(client: Client) -> None:
    def cancel(msg_id: int) -> None:
        created = [r for r in client.requests if r["method"] == "window/workDoneProgress/create"]
        token = created[-1]["params"]["token"]
        client.wait_for(lambda: any(v["kind"] == "begin" for v in client.progress(token)))
        client.notify("window/workDoneProgress/cancel", {"token": token})

    _cancel_sleepy(client, cancel)


def test_client_provided_progress_token(client: Client) -> None:
    created_before = sum(r["method"] == "window/workDoneProgress/create" for r in client.requests)
    msg_id = client.start(
        "tflsp.verifyClass",
        [client.uri, "Good", line_of("class Good"), ["tracking"]],
        workDoneToken="client-token-1",
    )
    assert client.response(msg_id, 60)["result"]["ok"] is True
    values = client.progress("client-token-1")
    assert values[0]["kind"] == "begin" and values[-1]["kind"] == "end"
    created_after = sum(r["method"] == "window/workDoneProgress/create" for r in client.requests)
    assert created_after == created_before


def test_a_hung_worker_times_out_then_the_next_command_works(client: Client) -> None:
    client.notify(
        "workspace/didChangeConfiguration",
        {"settings": {"tflsp": {"verifier": {"timeout": 1}}}},
    )
    began = time.perf_counter()
    answer = client.verify("Sleepy", "tracking")
    assert time.perf_counter() - began < 20
    error = answer["error"]
    assert error["code"] == REQUEST_FAILED
    assert "did not finish within 1 s" in error["message"]
    shown = client.wait_notification("window/showMessage", lambda p: p["type"] == 1)
    assert "did not finish within 1 s" in shown["params"]["message"]
    client.notify(
        "workspace/didChangeConfiguration",
        {"settings": {"tflsp": {"verifier": {"timeout": 60}}}},
    )
    assert client.verify("Good", "tracking")["result"]["ok"] is True


def test_a_crashed_worker_is_reported_then_replaced(client: Client) -> None:
    answer = client.verify("Crash", "tracking")
    error = answer["error"]
    assert error["code"] == REQUEST_FAILED
    assert "the worker died with SIGKILL" in error["message"]
    assert "fresh worker will start" in error["message"]
    assert error["data"]["state"] in ("failed", "starting", "ready")
    assert client.verify("Good", "tracking")["result"]["ok"] is True


def test_restart_command(client: Client) -> None:
    client.notifications.clear()
    result = client.run("tflsp.restartVerifier", [])["result"]
    assert result["data"]["state"] == "ready"
    assert "TensorFlow 2.21" in result["summary"]
    states = client.states()
    assert states.index("stopped") < states.index("starting") < states.index("ready")


def test_verify_catalog_with_progress_and_report(client: Client) -> None:
    result = client.run("tflsp.verifyCatalog", ["TFL101"], timeout=180)["result"]
    assert result["ok"] is True, json.dumps(result)[:2000]
    assert result["data"]["counts"]["pass"] == 2
    assert result["summary"].startswith("catalog (Keras 3): 2 passed, 0 failed")
    assert "| TFL101 `print-in-graph` | bad.py | 3 | pass |" in result["report"]
    created = [r for r in client.requests if r["method"] == "window/workDoneProgress/create"]
    values = client.progress(created[-1]["params"]["token"])
    assert [v["percentage"] for v in values if v["kind"] == "report"][-1] == 100


def test_cancelling_the_catalog_run_stops_its_worker(client: Client) -> None:
    from tests.server.test_verifier_settings import children

    before = set(children(client.process.pid))
    msg_id = client.start("tflsp.verifyCatalog", ["TFL1"])
    created = [r for r in client.requests if r["method"] == "window/workDoneProgress/create"]
    client.wait_for(lambda: len(set(children(client.process.pid)) - before) > 0)
    client.wait_for(
        lambda: (
            [r for r in client.requests if r["method"] == "window/workDoneProgress/create"]
            != created
        )
    )
    client.notify("$/cancelRequest", {"id": msg_id})
    answer = client.response(msg_id, 30)
    assert answer["error"]["code"] == CANCELLED
    deadline = time.monotonic() + 15
    while set(children(client.process.pid)) - before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert set(children(client.process.pid)) - before == set()


def test_a_bad_verify_comment_is_a_warning_on_the_class(client: Client) -> None:
    result = client.verify("Misdirected", "tracking")["result"]
    [probe] = result["data"]["results"]
    assert probe["outcome"] == "error"
    [diagnostic] = result["data"]["diagnostics"]
    assert diagnostic["severity"] == 2
    assert diagnostic["message"].startswith("tracking could not run: the code cannot be loaded")
    assert "unknown verify() argument 'nonsense'" in diagnostic["message"]
    assert diagnostic["range"]["start"]["line"] == line_of("class Misdirected")
