"""How long does the TensorFlow verifier take?  Prints medians; not a test.

Measured on this machine (the CPU may be shared; rerun before trusting a number):

- TensorFlow import time in a fresh interpreter (the floor for any cold start);
- cold worker start: spawn -> TensorFlow imported -> ready (Keras 3 and Keras 2);
- warm probes on a small layer: ``tracking`` and ``modes``, through the sync client;
- warm ``saveload`` with a spare fresh process already waiting, and back to back (the next
  spare is still importing TensorFlow);
- a code-lens command through the language server: ``workspace/executeCommand``
  ``tflsp.verifyClass`` over stdio, with a bridge to :class:`tflsp.verify.AsyncVerifier`
  defined here (the real bridge is wired into the server separately).

Targets from the issue: warm probe through the server <= 300 ms for a small layer; cold start
<= TensorFlow import time + 1 s.

Usage: ``python benchmarks/verify_latency.py [--runs 20] [--skip-server] [--skip-keras2]``
"""

from __future__ import annotations

import argparse
import asyncio
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
def serve() -> None:
    """Server process: tflsp's language server with a bridge to the verifier."""
    from tflsp.server import create_server, serve_stdio
    from tflsp.server.verifier import VerifierBridge, VerifierState, VerifyOutcome, VerifyTarget
    from tflsp.verify import AsyncVerifier

    class ProbeBridge(VerifierBridge):
        state = VerifierState.STOPPED

        def __init__(self) -> None:
            self.verifier = AsyncVerifier(WorkerConfig(keras="3"), on_state=self._state)

        def _state(self, state: Any, detail: str) -> None:
            self.state = VerifierState(state.value)

        async def verify_class(self, target: VerifyTarget) -> VerifyOutcome:
            result = await self.verifier.probe(
                {
                    "kind": "tracking",
                    "path": target.path or PATH,
                    "source": target.source,
                    "target": target.name,
                }
            )
            return VerifyOutcome(
                result["outcome"] == "pass",
                f"tracking: {result['outcome']}",
                [f["message"] for f in result["findings"]],
                {"observations": result["observations"]},
            )

        async def close(self) -> None:
            await self.verifier.close()

    serve_stdio(create_server(verifier=ProbeBridge()))


def through_server(runs: int) -> None:
    from lsp_latency import Client

    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    client = Client([sys.executable, str(Path(__file__).resolve()), "--serve"], stderr=log)
    try:
        client.initialize()
        uri = (ROOT / PATH).as_uri()
        client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "python",
                    "version": 1,
                    "text": LAYER_SOURCE,
                }
            },
        )
        # No wait for diagnostics: requests are handled in order, and the command only needs
        # the document text.
        line = LAYER_SOURCE.splitlines().index("class Small(keras.layers.Layer):")

        def command() -> float:
            begin = time.perf_counter()
            msg_id = client.request(
                "workspace/executeCommand",
                {"command": "tflsp.verifyClass", "arguments": [uri, "Small", line]},
            )
            answer = client.response(msg_id)
            assert "result" in answer and answer["result"]["ok"], answer
            return time.perf_counter() - begin

        print(
            f"code-lens command through the server, cold (worker start included): {command():.2f} s"
        )
        command()
        print(
            f"code-lens command through the server, warm: {_ms([command() for _ in range(runs)])}"
        )
    except Exception:
        log.seek(0)
        print(log.read().decode("utf-8", "replace")[-3000:], file=sys.stderr)
        raise
    finally:
        client.close()
        log.close()


def main() -> None:
    if "--serve" in sys.argv:
        serve()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--skip-server", action="store_true")
    parser.add_argument("--skip-keras2", action="store_true")
    args = parser.parse_args()
    cold_start("3", args.cold_runs)
    if not args.skip_keras2:
        cold_start("2", args.cold_runs)
    warm_probes(args.runs)
    saveload(args.runs)
    if not args.skip_server:
        through_server(args.runs)


if __name__ == "__main__":
    asyncio.set_event_loop_policy(None)
    main()
