"""Run every pattern's examples in a worker and compare with its ``[runtime]`` section.  Stdlib only.

Examples run in a warm worker, each in a fresh ``__main__`` namespace with the process state
reset (see :mod:`tflsp.verify.agent.isolation`).  Examples that flip switches no reset can undo
(``runtime.isolate = true``, or calls listed in :data:`FRESH_PROCESS_RE`) get a fresh worker.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tflsp.catalog import Pattern
from tflsp.verify.checks import Check, check_probe, check_program
from tflsp.verify.client import VerifierClient
from tflsp.verify.config import WorkerConfig
from tflsp.verify.errors import TensorFlowMissing, VerifierError
from tflsp.verify.expectations import ExampleSpec, RuntimeSpec, RuntimeSpecError, parse_runtime
from tflsp.verify.record import Result, utc_now

# Process-wide switches that cannot be reset inside one process, or settings read only when
# TensorFlow/Keras is imported: a program using them gets a worker of its own.
FRESH_PROCESS_RE = re.compile(
    r"\b(enable_debug_mode|disable_eager_execution|enable_eager_execution|disable_v2_behavior"
    r"|enable_v2_behavior|enable_numpy_behavior|experimental_enable_numpy_behavior"
    r"|enable_op_determinism|set_memory_growth|set_visible_devices|set_logical_device_configuration"
    r"|set_inter_op_parallelism_threads|set_intra_op_parallelism_threads"
    r"|enable_unsafe_deserialization|set_backend|TF_USE_LEGACY_KERAS|KERAS_BACKEND|os\.environ"
    r"|putenv|disable_tensor_equality|enable_tensor_equality|disable_resource_variables"
    r"|disable_control_flow_v2|enable_control_flow_v2)\b"
)
OUTPUT_LINES = 20


def fresh_process_reason(source: str) -> str | None:
    match = FRESH_PROCESS_RE.search(source)
    return f"uses {match.group(1)}" if match else None


@dataclass(frozen=True)
class Task:
    pattern: Pattern
    keras: str
    example: str
    spec: ExampleSpec | None  # None: the runtime section is malformed or skipped
    runtime: RuntimeSpec | None
    note: str = ""

    @property
    def path(self) -> str:
        return str(self.pattern.folder / f"{self.example}.py")

    @property
    def display(self) -> str:
        return f"{self.pattern.slug}/{self.example}.py"


def plan(patterns: Iterable[Pattern], versions: Iterable[str]) -> list[Task]:
    """Every (pattern, Keras version, example) that must run, in catalog order."""
    tasks = []
    versions = list(versions)
    for pattern in patterns:
        try:
            runtime: RuntimeSpec | None = parse_runtime(pattern)
            problem = ""
        except RuntimeSpecError as exc:
            runtime, problem = None, str(exc)
        for version in versions:
            if not pattern.applies_to(int(version)):
                continue
            for example in ("bad", "good"):
                if runtime is None:
                    tasks.append(Task(pattern, version, example, None, None, problem))
                elif runtime.skip is not None:
                    tasks.append(Task(pattern, version, example, None, runtime, runtime.skip))
                else:
                    tasks.append(
                        Task(
                            pattern,
                            version,
                            example,
                            runtime.for_example(example, version),
                            runtime,
                        )
                    )
    return tasks


# "<function f at 0x7fb5caf16ca0>": a new address every run would churn the committed record.
_ADDRESS_RE = re.compile(r"\bat 0x[0-9a-f]+\b")


def _lines(text: str) -> list[str]:
    text = _ADDRESS_RE.sub("at 0x…", text)
    lines = [line if len(line) <= 200 else line[:199] + "…" for line in text.splitlines()]
    if len(lines) > OUTPUT_LINES:
        lines = [*lines[:OUTPUT_LINES], f"… {len(lines) - OUTPUT_LINES} more line(s)"]
    return lines


def observed_summary(
    run: dict[str, Any] | None, probe: dict[str, Any] | None = None
) -> dict[str, Any]:
    if run is None:
        return {"outcome": "error", "exception": None, "stdout": [], "stderr": [], "probe": None}
    exception = run.get("exception")
    text = None
    if exception:
        message = " ".join(exception["message"].split())
        text = f"{exception['type']}: {message[:400]}"
    return {
        "outcome": run.get("outcome"),
        "exception": text,
        "stdout": _lines(run.get("stdout", "")),
        "stderr": _lines(run.get("stderr", "")),
        "warnings": [
            f"{w['category']}: {w['message'][:200]}" for w in run.get("warnings", [])[:10]
        ],
        "probe": (probe or {}).get("observations") if probe else None,
    }


class CatalogRun:
    """Runs tasks on ``jobs`` workers per Keras version; versions run side by side."""

    def __init__(
        self,
        config_for: Callable[[str], WorkerConfig],
        *,
        jobs: int = 1,
        fresh: bool = False,
        on_result: Callable[[Result], None] | None = None,
    ) -> None:
        self.config_for = config_for
        self.jobs = max(1, jobs)
        self.fresh = fresh
        self.on_result = on_result
        self.runs: list[dict[str, Any]] = []
        self.fatal: list[str] = []
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._clients: list[VerifierClient] = []

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Stop: no new task starts, and workers running one are killed.  Thread-safe."""
        self._cancelled.set()
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            client.close()

    def _client(self, config: WorkerConfig) -> VerifierClient:
        client = VerifierClient(config)
        with self._lock:
            self._clients.append(client)
            if self._cancelled.is_set():
                client.close()
        return client

    def run(self, tasks: list[Task]) -> list[Result]:
        results: list[Result] = []
        by_version: dict[str, list[Task]] = {}
        for task in tasks:
            by_version.setdefault(task.keras, []).append(task)
        threads = [
            threading.Thread(target=self._run_version, args=(version, items, results), daemon=True)
            for version, items in by_version.items()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(results, key=lambda r: (r.pattern, r.keras != "3", r.example != "bad"))

    def _emit(self, result: Result, results: list[Result]) -> None:
        with self._lock:
            results.append(result)
            if self.on_result is not None:
                self.on_result(result)

    def _run_version(self, version: str, tasks: list[Task], results: list[Result]) -> None:
        start = time.monotonic()
        pending: queue.Queue[Task] = queue.Queue()
        for task in tasks:
            pending.put(task)
        config = self.config_for(version)
        clients = [self._client(config) for _ in range(self.jobs)]
        info: dict[str, Any] = {}

        def work(client: VerifierClient) -> None:
            while not self._cancelled.is_set():
                try:
                    task = pending.get_nowait()
                except queue.Empty:
                    return
                result = self._run_task(task, client, config, info)
                self._emit(result, results)

        threads = [threading.Thread(target=work, args=(c,), daemon=True) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for client in clients:
            client.close()
        if info:
            self.runs.append(
                {
                    "keras": version,
                    "tensorflow": info.get("tensorflow", ""),
                    "keras_version": info.get("keras", ""),
                    "python": info.get("python", ""),
                    "platform": info.get("platform", ""),
                    "seconds": round(time.monotonic() - start, 2),
                    "workers": self.jobs,
                    "timestamp": utc_now(),
                }
            )

    def _run_task(
        self, task: Task, client: VerifierClient, config: WorkerConfig, info: dict[str, Any]
    ) -> Result:
        """Run one example; ``info`` collects the versions of whichever worker ran it."""
        base: dict[str, Any] = {
            "pattern": task.pattern.code,
            "name": task.pattern.name,
            "keras": task.keras,
            "example": task.example,
            "timestamp": utc_now(),
        }
        if task.spec is None:
            status = "skip" if task.runtime is not None else "error"
            return Result(**base, status=status, expected={}, observed={}, note=task.note)
        assert task.runtime is not None
        source = (task.pattern.folder / f"{task.example}.py").read_text(encoding="utf-8")
        reason = "runtime.isolate = true" if task.runtime.isolate else fresh_process_reason(source)
        if self.fresh:
            reason = reason or "--fresh"
        timeout = task.runtime.timeout
        start = time.monotonic()
        run: dict[str, Any] | None = None
        probe: dict[str, Any] | None = None
        checks: list[Check] = []
        note = ""
        versions: dict[str, Any] = {}
        one_shot = self._client(config) if reason else None
        worker = one_shot or client
        try:
            run = worker.run_program(task.display, source, timeout=timeout)
            checks = check_program(task.spec, run)
            if task.spec.probe is not None:
                probe = worker.probe(task.spec.probe.request(task.display, source), timeout=timeout)
                if probe.get("outcome") == "error":
                    note = f"probe error: {probe.get('error')}"
                checks += check_probe(task.spec.probe, probe)
            versions = worker.info or {}
            info.update(versions)
        except TensorFlowMissing as exc:
            note = str(exc)
            self.fatal.append(note)
        except VerifierError as exc:
            note = str(exc).splitlines()[0]
        finally:
            if one_shot is not None:
                one_shot.close()
        if reason:
            note = "; ".join(filter(None, [f"fresh worker ({reason})", note]))
        status = (
            "error"
            if run is None or (probe is not None and probe.get("outcome") == "error")
            else ("pass" if all(c.ok for c in checks) else "fail")
        )
        return Result(
            **base,
            status=status,
            expected=task.spec.describe(),
            observed=observed_summary(run, probe),
            checks=tuple(c.as_dict() for c in checks),
            note=note,
            isolated=bool(reason),
            tensorflow=str(versions.get("tensorflow", "")),
            keras_version=str(versions.get("keras", "")),
            seconds=round(time.monotonic() - start, 3),
        )
