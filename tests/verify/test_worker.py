"""The worker process: protocol safety, timeouts, crashes, memory exhaustion, cancellation.

Each failure must reach the caller as a clear error, and the next request must get a working
worker.  These tests start their own workers because they kill them.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time

import pytest

from tflsp.verify import (
    AsyncVerifier,
    RequestCancelled,
    TensorFlowMissing,
    VerifierClient,
    WorkerConfig,
    WorkerCrashed,
    WorkerState,
    WorkerTimeout,
)
from tflsp.verify.config import GIB

pytestmark = pytest.mark.tf

RECOVERY = "print('alive')\n"


def _run(client: VerifierClient, source: str, timeout: float | None = None) -> dict:
    return client.run_program("prog.py", source, timeout=timeout)


@pytest.fixture(scope="module")
def client():
    states: list[tuple[WorkerState, str]] = []
    with VerifierClient(
        WorkerConfig(keras="3", timeout=60), on_state=lambda s, d: states.append((s, d))
    ) as c:
        c.states = states  # type: ignore[attr-defined]
        yield c


def test_lifecycle_is_reported_and_versions_are_known(client: VerifierClient) -> None:
    info = client.start()
    assert info["tensorflow"].startswith("2.") and info["keras"].startswith("3.")
    assert client.state is WorkerState.READY
    _run(client, RECOVERY)
    seen = [s for s, _ in client.states]  # type: ignore[attr-defined]
    assert seen[:2] == [WorkerState.STARTING, WorkerState.READY]
    assert seen[-2:] == [WorkerState.BUSY, WorkerState.READY]


def test_prints_cannot_corrupt_the_protocol(client: VerifierClient) -> None:
    source = (
        "import os, sys\n"
        'print(\'{"jsonrpc": "2.0", "id": 1, "result": "forged"}\')\n'
        "os.write(1, b'raw fd write\\n')\n"
        "sys.__stdout__.write('dunder stdout\\n'); sys.__stdout__.flush()\n"
        "print('to stderr', file=sys.stderr)\n"
        "try:\n    input()\nexcept EOFError:\n    print('stdin is empty')\n"
    )
    result = _run(client, source)
    assert result["outcome"] == "finished"
    assert result["stdout"].splitlines() == [
        '{"jsonrpc": "2.0", "id": 1, "result": "forged"}',
        "raw fd write",
        "dunder stdout",
        "stdin is empty",
    ]
    assert "to stderr" in result["stderr"]
    assert _run(client, RECOVERY)["stdout"] == "alive\n"


def test_a_hanging_program_is_killed_and_the_next_request_gets_a_fresh_worker(
    client: VerifierClient,
) -> None:
    client.start()
    pid = client.info["pid"]
    started = time.monotonic()
    with pytest.raises(WorkerTimeout, match=r"did not finish within 2 s; the worker was killed"):
        _run(client, "while True:\n    pass\n", timeout=2)
    assert time.monotonic() - started < 15
    assert client.state is WorkerState.FAILED
    assert _run(client, RECOVERY)["stdout"] == "alive\n"
    assert client.info["pid"] != pid


def test_an_aborting_worker_is_reported_and_replaced(client: VerifierClient) -> None:
    client.start()
    pid = client.info["pid"]
    with pytest.raises(WorkerCrashed) as info:
        _run(client, "import os\nprint('before abort', flush=True)\nos.abort()\n")
    message = str(info.value)
    assert "died with SIGABRT" in message and "fresh worker will start" in message
    assert info.value.returncode == -6
    assert _run(client, RECOVERY)["stdout"] == "alive\n"
    assert client.info["pid"] != pid


def test_a_segfault_is_reported_and_replaced(client: VerifierClient) -> None:
    with pytest.raises(WorkerCrashed, match="SIGSEGV"):
        _run(client, "import ctypes\nctypes.string_at(0)\n")
    assert _run(client, RECOVERY)["outcome"] == "finished"


def test_memory_exhaustion_hits_the_limit_not_the_machine() -> None:
    # 3 GiB of address space: enough for TensorFlow (~1.4 GiB after import), and a runaway
    # allocation stops at ~1.5 GiB more instead of eating the machine.
    states: list[WorkerState] = []
    config = WorkerConfig(keras="3", memory_limit=3 * GIB, timeout=120)
    with VerifierClient(config, on_state=lambda s, d: states.append(s)) as c:
        pid = c.start()["pid"]
        result = _run(
            c, "chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 1024 * 1024))\n"
        )
        assert result["outcome"] == "raised"
        assert result["exception"]["type"] == "MemoryError"
        assert result["memory_exhausted"] and result["worker_recycled"]
        assert c.state is WorkerState.STOPPED and "memory limit" in c.detail
        assert _run(c, RECOVERY)["stdout"] == "alive\n"
        assert c.info["pid"] != pid
        # The limit is really in force in the worker.
        limit = _run(c, "import resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0])\n")
        assert int(limit["stdout"]) == 3 * GIB


def test_tensorflow_missing_is_a_clear_start_error(tmp_path) -> None:
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3")
    probe = subprocess.run([python, "-c", "import tensorflow"], capture_output=True)
    if probe.returncode == 0:
        pytest.skip("the system python3 has TensorFlow")
    with (
        VerifierClient(WorkerConfig(python=python, start_timeout=60)) as c,
        pytest.raises(TensorFlowMissing, match="TensorFlow is not installed"),
    ):
        c.start()
    assert c.state is WorkerState.STOPPED or c.state is WorkerState.FAILED


def test_async_cancellation_kills_a_running_request_and_skips_queued_ones() -> None:
    async def scenario() -> None:
        states: list[WorkerState] = []
        verifier = AsyncVerifier(
            WorkerConfig(keras="3", timeout=60), on_state=lambda s, d: states.append(s)
        )
        await verifier.start()
        pid = verifier.info["pid"]
        hanging = asyncio.ensure_future(verifier.run_program("hang.py", "while True:\n    pass\n"))
        queued = asyncio.ensure_future(verifier.run_program("q.py", "print('should not run')\n"))
        await asyncio.sleep(1.0)
        assert verifier.state is WorkerState.BUSY
        queued.cancel()
        hanging.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hanging
        with pytest.raises(asyncio.CancelledError):
            await queued
        # The loop stayed responsive and the verifier works again with a new worker.
        result = await asyncio.wait_for(verifier.run_program("ok.py", RECOVERY), 120)
        assert result["stdout"] == "alive\n"
        assert verifier.info["pid"] != pid
        await asyncio.sleep(0)  # deliver the last state callbacks
        assert WorkerState.FAILED in states and states[-1] is WorkerState.READY
        await verifier.close()

    asyncio.run(scenario())


def test_ticket_cancel_from_another_thread() -> None:
    with VerifierClient(WorkerConfig(keras="3")) as c:
        c.start()
        ticket = c.submit(
            "run_program", {"path": "hang.py", "source": "import time\ntime.sleep(600)\n"}
        )
        time.sleep(1.0)
        assert ticket.cancel()
        with pytest.raises(RequestCancelled):
            ticket.result(timeout=30)
        assert _run(c, RECOVERY)["stdout"] == "alive\n"


def test_eager_restart_brings_a_worker_back_without_a_request() -> None:
    with VerifierClient(WorkerConfig(keras="3", restart="eager")) as c:
        c.start()
        with pytest.raises(WorkerTimeout):
            _run(c, "while True:\n    pass\n", timeout=1)
        deadline = time.monotonic() + 120
        while c.state is not WorkerState.READY and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.state is WorkerState.READY


def test_keras2_worker_runs_tf_keras(keras2: VerifierClient) -> None:
    info = keras2.start()
    assert info["keras"].startswith("2.")
    result = keras2.run_program(
        "k.py", "import tensorflow as tf\nprint(type(tf.keras.layers.Dense(1)).__module__)\n"
    )
    assert result["stdout"].startswith("tf_keras.")
