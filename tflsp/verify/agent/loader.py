"""Loading a saved model in a *fresh* process, as a user's next script would.

``python -m tflsp.verify.agent.loader`` imports TensorFlow, then waits for exactly one job on
stdin, runs it and exits.  The worker keeps one such process started in advance (a spare), so
a save/load probe pays for a fresh interpreter without paying for the TensorFlow import.

The fresh process matters: classes the user's module registers with
``register_keras_serializable`` are registered there only because the module is imported
again, and nothing the worker did in memory can make a broken save look fine.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

from tflsp.verify.agent.common import describe_exception


# -- the worker's side -----------------------------------------------------------------------
class LoaderPool:
    """At most one spare loader process, started ahead of need."""

    def __init__(self, memory_limit: int) -> None:
        self.memory_limit = memory_limit
        self._spare: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._lock = threading.Lock()

    def prepare(self) -> None:
        with self._lock:
            if self._spare is None or self._spare.poll() is not None:
                self._spare, self._stderr = self._spawn()

    def _spawn(self) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed once the process is reaped
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tflsp.verify.agent.loader",
                "--memory-limit",
                str(self.memory_limit),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=tempfile.gettempdir(),
            env=dict(os.environ),
            close_fds=True,
        )
        return process, stderr

    def run(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Hand ``job`` to the spare (starting one if needed); start the next spare afterwards."""
        with self._lock:
            process, stderr = self._spare, self._stderr
            self._spare = self._stderr = None
            if process is None or process.poll() is not None:
                process, stderr = self._spawn()
        assert process.stdin is not None and process.stdout is not None and stderr is not None
        try:
            process.stdin.write((json.dumps(job) + "\n").encode())
            process.stdin.flush()
            line = _read_line(process.stdout, timeout)
        except OSError:
            line = None
        finally:
            threading.Thread(target=self.prepare, daemon=True).start()
        if line is None:
            process.kill()
            process.wait()
            reason = (
                "did not answer in time"
                if process.returncode == -9
                else f"exited with {process.returncode}"
            )
            stderr.seek(0)
            tail = stderr.read().decode("utf-8", "replace")[-3000:]
            stderr.close()
            return {"error": f"the fresh loading process {reason}", "stderr": tail}
        threading.Thread(target=_reap, args=(process, stderr), daemon=True).start()
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        with self._lock:
            if self._spare is not None:
                self._spare.kill()
                self._spare.wait()
                self._spare = None
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None


def _reap(process: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
    with contextlib.suppress(Exception):
        process.wait(timeout=60)
    stderr.close()


def _read_line(stream: IO[bytes], timeout: float) -> bytes | None:
    deadline = time.monotonic() + timeout
    buffer = b""
    fd = stream.fileno()
    while not buffer.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buffer += chunk
    return buffer


# -- the fresh process's side ------------------------------------------------------------------
def _inputs(data: Any) -> list[Any]:
    """The saved inputs: ``in_0``, ``in_1``...; ``in_0.key`` arrays make a dict."""
    grouped: dict[int, Any] = {}
    for name in data.files:
        if not name.startswith("in_"):
            continue
        head, _, key = name[3:].partition(".")
        if key:
            grouped.setdefault(int(head), {})[key] = data[name]
        else:
            grouped[int(head)] = data[name]
    return [grouped[i] for i in sorted(grouped)]


def _call(model: Any, inputs: list[Any], style: str) -> Any:
    """Call a loaded model the way the original was called: a Functional wrapper takes the
    list of inputs, a subclassed model its positional arguments."""
    if style == "list":
        return model(inputs if len(inputs) > 1 else inputs[0])
    return model(*inputs)


def _compare(model: Any, job: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    from tflsp.verify.agent.samples import flat_arrays, max_difference

    data = np.load(job["arrays"])
    expected_outputs = [data[k] for k in sorted(data.files, key=_index) if k.startswith("out_")]
    expected_weights = [data[k] for k in sorted(data.files, key=_index) if k.startswith("w_")]
    keras = importlib.import_module(job.get("keras") or "keras")
    keras.utils.set_random_seed(11)
    outputs = flat_arrays(_call(model, _inputs(data), job.get("style", "list")))
    weights = [np.asarray(w) for w in model.get_weights()] if hasattr(model, "get_weights") else []
    return {
        "type": type(model).__name__,
        "max_diff": max_difference(expected_outputs, outputs),
        "weights_max_diff": max_difference(expected_weights, weights)
        if expected_weights or weights
        else 0.0,
        "weights": [len(expected_weights), len(weights)],
    }


def _index(key: str) -> int:
    """``out_10`` sorts after ``out_9``; keys without a number sort first."""
    suffix = key.rpartition("_")[2]
    return int(suffix) if suffix.isdigit() else -1


def _step(name: str, action: Any) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        observed = action()
        return {
            "step": name,
            "ok": True,
            **(observed or {}),
            "seconds": round(time.perf_counter() - start, 4),
        }
    except Exception as exc:
        return {
            "step": name,
            "ok": False,
            "exception": describe_exception(exc),
            "seconds": round(time.perf_counter() - start, 4),
        }


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    import tensorflow as tf

    from tflsp.verify.agent.usercode import import_module

    # The same Keras that saved the model loads it (tf.keras may be the other one here).
    keras = importlib.import_module(job.get("keras") or "keras")
    steps = []
    module: Any = None
    if job.get("cwd"):
        # Files the module writes at import land in the probe's scratch folder, not in /tmp.
        os.chdir(job["cwd"])

    def import_user_module() -> dict[str, Any]:
        nonlocal module
        sys.path.insert(0, str(Path(job["script"]).parent))
        if job.get("home"):
            sys.path.insert(1, job["home"])
            sys.dont_write_bytecode = True  # leave no __pycache__ in the user's folder
        module, _, _ = import_module(job["module"], Path(job["script"]), {})
        return {}

    steps.append(_step("import", import_user_module))
    if module is not None and job.get("keras_file"):
        steps.append(
            _step("load", lambda: _compare(keras.models.load_model(job["keras_file"]), job))
        )
        custom = {
            name: getattr(module, name) for name in job["custom_objects"] if hasattr(module, name)
        }
        steps.append(
            _step(
                "load_custom_objects",
                lambda: _compare(
                    keras.models.load_model(job["keras_file"], custom_objects=custom), job
                ),
            )
        )
    if job.get("export_dir"):

        def exported() -> dict[str, Any]:
            import numpy as np

            from tflsp.verify.agent.samples import flat_arrays, max_difference

            loaded = tf.saved_model.load(job["export_dir"])
            endpoint = getattr(loaded, "serve", None) or loaded.signatures["serving_default"]
            data = np.load(job["arrays"])
            expected = [data[k] for k in sorted(data.files, key=_index) if k.startswith("out_")]
            inputs = tf.nest.map_structure(tf.constant, _inputs(data))
            if len(inputs) == 1:
                got = endpoint(inputs[0])
            else:
                try:
                    got = endpoint(inputs)
                except (TypeError, ValueError):
                    got = endpoint(*inputs)
            return {"max_diff": max_difference(expected, flat_arrays(got))}

        steps.append(_step("load_savedmodel", exported))
    return {"steps": steps, "pid": os.getpid()}


def main() -> int:
    from tflsp.verify.worker import apply_memory_limit, isolate_stdio

    reader, writer = isolate_stdio()
    limit = (
        int(sys.argv[sys.argv.index("--memory-limit") + 1]) if "--memory-limit" in sys.argv else 0
    )
    apply_memory_limit(limit)
    import tensorflow as tf

    tf.keras.layers.Layer  # noqa: B018 - import Keras now, while nobody waits
    ready = time.time()
    line = reader.readline()
    if not line:
        return 0
    received = time.time()
    answer: dict[str, Any] = {"error": "the loader failed before running the job"}
    with contextlib.suppress(Exception):
        answer = run_job(json.loads(line))
        # Was the process warm?  Waiting time says whether TF was imported before the job came.
        answer["waited_for_import"] = round(max(0.0, ready - received), 3)
    writer.write((json.dumps(answer) + "\n").encode())
    writer.flush()
    # Tearing TensorFlow down takes over a second and nobody needs it: the OS frees everything.
    os._exit(0 if "steps" in answer else 1)


if __name__ == "__main__":
    sys.exit(main())
