"""How long does the TensorFlow verifier take?  Prints medians; not a test.

Measured on this machine (the CPU may be shared; rerun before trusting a number):

- TensorFlow import time in a fresh interpreter (the floor for any cold start);
- cold worker start: spawn -> TensorFlow imported -> ready (Keras 3 and Keras 2);
- warm probes on a small layer: ``tracking`` and ``modes``, through the sync client;
- warm ``saveload`` with a spare fresh process already waiting, and back to back (the next
  spare is still importing TensorFlow);
- code-lens commands through the language server (``tflsp serve`` with its real verifier
  bridge): ``workspace/executeCommand`` over stdio, from the request to the answer, cold (the
  worker starts) and warm, for a layer, a function and a model; and how soon a pre-warmed
  worker is ready.

Targets from the issue: warm probe through the server <= 300 ms for a small layer; cold start
<= TensorFlow import time + 1 s.

Usage: ``python benchmarks/verify_latency.py [--runs 20] [--skip-server] [--skip-keras2]
[--skip-model] [--server-only]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from tflsp.verify import VerifierClient, WorkerConfig  # noqa: E402

LAYER_SOURCE = """import tensorflow as tf

keras = tf.keras


class Small(keras.layers.Layer):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)


@keras.utils.register_keras_serializable(package="bench")
class SmallModel(keras.Model):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def scale(x):
    return x * 2.0
"""
PATH = "bench_layers.py"


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(values) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   (n={len(values)})"


def tensorflow_import_time(keras: str) -> float:
    env_prefix = "import os; os.environ['TF_USE_LEGACY_KERAS'] = '1'; " if keras == "2" else ""
    code = (
        f"{env_prefix}import time; t = time.perf_counter(); import tensorflow as tf; "
        "tf.keras.layers.Layer; print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cold_start(keras: str, runs: int) -> None:
    imports = [tensorflow_import_time(keras) for _ in range(runs)]
    starts, inside, overhead = [], [], []
    for _ in range(runs):
        begin = time.perf_counter()
        with VerifierClient(WorkerConfig(keras=keras)) as client:
            info = client.start()
            elapsed = time.perf_counter() - begin
        starts.append(elapsed)
        inside.append(info["import_seconds"])
        # Everything that is not `import tensorflow`: interpreter start, stdio set-up, the
        # warm-up call, the handshake.  Measured in the same process, so load on a shared
        # machine affects both sides alike.
        overhead.append(elapsed - info["import_seconds"])
    print(
        f"Keras {keras}: `import tensorflow` in a fresh interpreter: median {statistics.median(imports):.2f} s"
    )
    print(
        f"Keras {keras}: cold worker start (spawn -> ready): median {statistics.median(starts):.2f} s = "
        f"import {statistics.median(inside):.2f} s + overhead {statistics.median(overhead):.2f} s "
        f"(max overhead {max(overhead):.2f} s)"
    )


def warm_probes(runs: int) -> None:
    with VerifierClient(WorkerConfig(keras="3")) as client:
        client.start()
        for kind, target in (("tracking", "Small"), ("modes", "scale"), ("modes", "Small")):
            params = {"kind": kind, "path": PATH, "source": LAYER_SOURCE, "target": target}
            client.probe(params)  # first use of this probe in the process
            times = []
            for _ in range(runs):
                begin = time.perf_counter()
                result = client.probe(params)
                times.append(time.perf_counter() - begin)
                assert result["outcome"] == "pass", result
            print(f"warm {kind:8} probe on {target:6} (client round trip): {_ms(times)}")


def saveload(runs: int) -> None:
    params = {"kind": "saveload", "path": PATH, "source": LAYER_SOURCE, "target": "SmallModel"}
    with VerifierClient(WorkerConfig(keras="3", prewarm_loader=True)) as client:
        client.start()
        client.probe(params)  # first save/load in this worker (Keras saving code warms up)
        ready, back_to_back, steps = [], [], []
        for _ in range(max(2, runs // 5)):
            time.sleep(15)  # the next spare finishes importing TensorFlow
            begin = time.perf_counter()
            result = client.probe(params)
            ready.append(time.perf_counter() - begin)
            steps.append({s["step"]: s.get("seconds") for s in result["details"]["steps"]})
            assert result["outcome"] == "pass", result["findings"]
        for _ in range(2):
            begin = time.perf_counter()
            client.probe(params)
            back_to_back.append(time.perf_counter() - begin)
        print(f"warm saveload, spare fresh process ready:     {_ms(ready)}")
        last = steps[-1]
        print("    steps (s): " + ", ".join(f"{k} {v}" for k, v in last.items() if v is not None))
        print(f"saveload back to back (spare still importing): {_ms(back_to_back)}")


# -- through the language server -------------------------------------------------------------
class ServerSession:
    """``tflsp serve`` over stdio with the real verifier bridge, driven like an editor would."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        from lsp_latency import Client

        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.client = Client([sys.executable, "-m", "tflsp", "serve"], stderr=self.log)
        msg_id = self.client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": None,
                # Server-created progress: the window/workDoneProgress/create round trip counts.
                "capabilities": {"window": {"workDoneProgress": True}},
                "initializationOptions": {"tflsp": settings or {}},
                "locale": "en",
            },
        )
        self.client.response(msg_id)
        self.client.notify("initialized", {})
        self.uri = (ROOT / PATH).as_uri()
        self.client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": self.uri,
                    "languageId": "python",
                    "version": 1,
                    "text": LAYER_SOURCE,
                }
            },
        )

    def command(self, command: str, name: str, probes: list[str] | None = None) -> float:
        """One code-lens command, from the request to its answer, in seconds."""
        prefix = "class " if command == "tflsp.verifyClass" else "def "
        line = next(
            i for i, t in enumerate(LAYER_SOURCE.splitlines()) if t.startswith(prefix + name)
        )
        arguments: list[Any] = [self.uri, name, line] + ([probes] if probes else [])
        begin = time.perf_counter()
        msg_id = self.client.request(
            "workspace/executeCommand", {"command": command, "arguments": arguments}
        )
        answer = self.client.response(msg_id)
        elapsed = time.perf_counter() - begin
        assert "result" in answer and answer["result"]["ok"], answer
        self.client.pending.clear()  # progress and diagnostics nobody reads here
        return elapsed

    def wait_state(self, state: str) -> None:
        self.client.wait(
            lambda m: m.get("method") == "tflsp/verifierState" and m["params"]["state"] == state
        )

    def close(self, failed: bool = False) -> None:
        if failed:
            self.log.seek(0)
            print(self.log.read().decode("utf-8", "replace")[-3000:], file=sys.stderr)
        self.client.close()
        self.log.close()


def through_server(runs: int, model: bool) -> None:
    session = ServerSession()
    failed = True
    try:
        cold = session.command("tflsp.verifyClass", "Small")
        print(f"code lens through the server, cold (worker start + tracking + modes): {cold:.2f} s")
        cases: list[tuple[str, str, str, list[str] | None]] = [
            ("layer, default probes (tracking + modes)", "tflsp.verifyClass", "Small", None),
            ("layer, tracking only", "tflsp.verifyClass", "Small", ["tracking"]),
            ("function, modes", "tflsp.verifyFunction", "scale", None),
        ]
        for label, command, name, probes in cases:
            session.command(command, name, probes)  # first use of these probes in the worker
            times = [session.command(command, name, probes) for _ in range(runs)]
            print(f"code lens through the server, warm, {label:42} {_ms(times)}")
        if model:
            # tracking + modes + saveload; saveload loads in a spare process that imports
            # TensorFlow again after each use, so the runs are spaced out.
            times = []
            for _ in range(max(2, runs // 5)):
                time.sleep(15)
                times.append(session.command("tflsp.verifyClass", "SmallModel"))
            print(
                f"code lens through the server, warm, {'model (tracking + modes + saveload)':42} {_ms(times)}"
            )
        failed = False
    finally:
        session.close(failed)

    prewarmed = ServerSession({"verifier": {"prewarm": True}})
    failed = True
    try:
        began = time.perf_counter()
        prewarmed.wait_state("ready")
        ready = time.perf_counter() - began
        first = prewarmed.command("tflsp.verifyClass", "Small")
        print(
            f"with verifier-prewarm: worker ready {ready:.2f} s after initialize; "
            f"first code lens then takes {first * 1000:.0f} ms"
        )
        failed = False
    finally:
        prewarmed.close(failed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--skip-server", action="store_true")
    parser.add_argument("--skip-keras2", action="store_true")
    parser.add_argument("--skip-model", action="store_true", help="no saveload through the server")
    parser.add_argument("--server-only", action="store_true", help="only the server measurements")
    args = parser.parse_args()
    if not args.server_only:
        cold_start("3", args.cold_runs)
        if not args.skip_keras2:
            cold_start("2", args.cold_runs)
        warm_probes(args.runs)
        saveload(args.runs)
    if not args.skip_server:
        through_server(args.runs, model=not args.skip_model)


if __name__ == "__main__":
    main()
