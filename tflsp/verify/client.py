"""The caller's side of the verifier: a long-lived worker behind a small, safe API.  Stdlib only.

:class:`VerifierClient` is synchronous and thread-safe (the CLI uses it directly); the
language server uses :class:`tflsp.verify.aio.AsyncVerifier`, a thin asyncio layer over it.

Life of the worker, as reported to ``on_state`` listeners::

    stopped --request/start()--> starting --initialized--> ready <--> busy
                                     |                                  |
                                     +--- start failed --> failed <-----+ crash / timeout /
                                                             |            cancel (killed)
                                     next request or eager --+
                                     restart: starting again

Guarantees: a request never hangs (timeout -> SIGKILL of the worker's process group); a
crashed or killed worker is replaced on the next request (or at once with
``restart="eager"``); every failure reaches the caller as a :class:`~tflsp.verify.errors.VerifierError`
whose message says what happened and what happens next.
"""

from __future__ import annotations

import contextlib
import enum
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from tflsp.verify import protocol
from tflsp.verify.config import WorkerConfig
from tflsp.verify.errors import (
    RemoteError,
    RequestCancelled,
    TensorFlowMissing,
    VerifierError,
    WorkerCrashed,
    WorkerStartError,
    WorkerTimeout,
)
from tflsp.verify.process import WorkerExited, WorkerProcess


class WorkerState(str, enum.Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    READY = "ready"
    BUSY = "busy"
    FAILED = "failed"


StateListener = Callable[[WorkerState, str], None]
ProgressListener = Callable[[str], None]


class Ticket:
    """A submitted request: its future, and a way to cancel it (killing the worker if needed)."""

    def __init__(self, client: VerifierClient, method: str) -> None:
        self.client = client
        self.method = method
        self.future: Future[Any] = Future()
        self.cancelled = threading.Event()
        self.process: WorkerProcess | None = None  # set while the worker runs this request

    def cancel(self) -> bool:
        """Cancel: drop it if still queued, kill the worker if it is running.  Idempotent."""
        self.cancelled.set()
        if self.future.cancel():
            return True
        process = self.process
        if process is not None and not self.future.done():
            process.kill()
            return True
        return False

    def result(self, timeout: float | None = None) -> Any:
        return self.future.result(timeout)


class VerifierClient:
    def __init__(
        self,
        config: WorkerConfig | None = None,
        *,
        on_state: StateListener | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config or WorkerConfig()
        self._listeners: list[StateListener] = [on_state] if on_state else []
        self._on_stderr = on_stderr
        self._lock = threading.RLock()
        self._process: WorkerProcess | None = None
        self._state = WorkerState.STOPPED
        self._detail = ""
        self._info: dict[str, Any] | None = None
        self._progress: dict[int, ProgressListener] = {}
        self._last_progress: dict[int, str] = {}  # what each running request said it was doing
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()
        self._closed = False
        self.starts = 0  # how many workers were started (tests and benchmarks read it)

    # -- state -------------------------------------------------------------------------------
    @property
    def state(self) -> WorkerState:
        return self._state

    @property
    def detail(self) -> str:
        """Why the worker is in its state (the last failure, for ``failed``)."""
        return self._detail

    @property
    def info(self) -> dict[str, Any] | None:
        """Versions and pid of the running worker (``None`` before the first start)."""
        return self._info

    def add_listener(self, listener: StateListener) -> None:
        self._listeners.append(listener)

    def _set_state(self, state: WorkerState, detail: str = "") -> None:
        self._state = state
        self._detail = detail
        for listener in list(self._listeners):
            with contextlib.suppress(Exception):
                listener(state, detail)

    # -- starting ------------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the worker and wait until TensorFlow is imported.  Idempotent."""
        with self._lock:
            if self._closed:
                raise VerifierError("the verifier client is closed")
            process = self._process
            if process is not None and not process.exited.is_set() and self._info is not None:
                return self._info
            self._discard_process()
            self._set_state(
                WorkerState.STARTING, f"importing TensorFlow (Keras {self.config.keras})"
            )
            try:
                process = WorkerProcess(
                    self.config, on_notification=self._notification, on_stderr=self._on_stderr
                )
            except OSError as exc:
                message = f"cannot start the verifier worker ({self.config.python}): {exc}"
                self._set_state(WorkerState.FAILED, message)
                raise WorkerStartError(message) from exc
            self.starts += 1
            self._process = process
            params = {"prewarm_loader": self.config.prewarm_loader}
            try:
                info = self._roundtrip(
                    process, protocol.INITIALIZE, params, self.config.start_timeout
                )
            except RemoteError as exc:
                self._discard_process()
                kind = (
                    TensorFlowMissing
                    if exc.code == protocol.TENSORFLOW_MISSING
                    else WorkerStartError
                )
                self._set_state(WorkerState.FAILED, str(exc))
                raise kind(str(exc)) from exc
            except WorkerTimeout as exc:
                self._discard_process()
                message = (
                    f"the verifier worker did not finish importing TensorFlow within "
                    f"{self.config.start_timeout:.0f} s"
                )
                self._set_state(WorkerState.FAILED, message)
                raise WorkerStartError(message) from exc
            except WorkerCrashed as exc:
                self._set_state(WorkerState.FAILED, str(exc))
                raise WorkerStartError(f"the verifier worker failed to start: {exc}") from exc
            self._info = info
            self._set_state(
                WorkerState.READY, f"TensorFlow {info.get('tensorflow')}, Keras {info.get('keras')}"
            )
            return info

    def _discard_process(self) -> None:
        process, self._process = self._process, None
        self._info = None
        if process is not None:
            process.kill()

    # -- requests ------------------------------------------------------------------------------
    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        progress: ProgressListener | None = None,
        ticket: Ticket | None = None,
    ) -> Any:
        """Send one request and wait for its result.  Starts the worker if needed."""
        limit = self.config.timeout if timeout is None else timeout
        with self._lock:
            if ticket is not None and ticket.cancelled.is_set():
                raise RequestCancelled(f"{method} was cancelled before it started")
            self.start()
            process = self._process
            assert process is not None
            if ticket is not None:
                if ticket.cancelled.is_set():  # cancelled while TensorFlow was importing
                    raise RequestCancelled(f"{method} was cancelled before it started")
                ticket.process = process
            self._set_state(WorkerState.BUSY, method)
            try:
                result = self._roundtrip(process, method, params or {}, limit, progress, ticket)
            except RequestCancelled as exc:
                self._after_failure(process, f"{method} was cancelled")
                raise exc
            except WorkerTimeout as exc:
                self._after_failure(process, str(exc))
                raise exc
            except WorkerCrashed as exc:
                self._after_failure(process, str(exc))
                raise exc
            except RemoteError as exc:
                self._after_remote_error(process, exc)
                raise exc
            finally:
                if ticket is not None:
                    ticket.process = None
            if isinstance(result, dict) and result.get("worker_recycled"):
                self._recycled(process, "the worker hit its memory limit and was restarted")
            else:
                self._set_state(WorkerState.READY, "")
            return result

    def _roundtrip(
        self,
        process: WorkerProcess,
        method: str,
        params: dict[str, Any],
        timeout: float,
        progress: ProgressListener | None = None,
        ticket: Ticket | None = None,
    ) -> Any:
        request_id, future = process.send(method, params)
        if progress is not None:
            self._progress[request_id] = progress
        start = time.monotonic()
        try:
            message = future.result(timeout=timeout)
        except FutureTimeout:
            process.kill()
            phase = self._last_progress.get(request_id, "")
            where = f" while {phase}" if phase else ""
            hint = (
                ": the module's top-level code did not finish (a loop, a download, a wait "
                'for input); move it under `if __name__ == "__main__":`'
                if phase.startswith("importing ")
                else ""
            )
            raise WorkerTimeout(
                f"{method} did not finish within {timeout:g} s{where}{hint}; the worker was "
                "killed and a fresh one will start on the next request",
                phase=phase,
            ) from None
        except WorkerExited:
            if ticket is not None and ticket.cancelled.is_set():
                raise RequestCancelled(f"{method} was cancelled; the worker was stopped") from None
            # Let the reader thread collect the exit status and the last stderr lines.
            with contextlib.suppress(Exception):
                process.proc.wait(timeout=5)
            time.sleep(0.05)
            raise self._crash(process, method, time.monotonic() - start) from None
        finally:
            self._progress.pop(request_id, None)
            self._last_progress.pop(request_id, None)
        if "error" in message:
            body = message["error"]
            raise RemoteError(
                int(body.get("code", protocol.INTERNAL_ERROR)),
                str(body.get("message")),
                body.get("data"),
            )
        return message.get("result")

    def _crash(self, process: WorkerProcess, method: str, elapsed: float) -> WorkerCrashed:
        tail = process.stderr_tail()
        hint = ""
        if any(s in tail for s in ("MemoryError", "bad_alloc", "Cannot allocate memory", "OOM")):
            hint = f" It probably hit its memory limit ({_limit(self.config.memory_limit)})."
        message = (
            f"{process.describe_exit()} while running {method} (after {elapsed:.1f} s).{hint} "
            "A fresh worker will start on the next request."
        )
        if tail:
            message += "\nLast worker output:\n" + tail
        return WorkerCrashed(message, returncode=process.returncode, stderr_tail=tail)

    def _after_failure(self, process: WorkerProcess, detail: str) -> None:
        process.kill()
        if self._process is process:
            self._process = None
            self._info = None
        self._set_state(WorkerState.FAILED, detail)
        self._maybe_restart()

    def _after_remote_error(self, process: WorkerProcess, exc: RemoteError) -> None:
        data = exc.data if isinstance(exc.data, dict) else {}
        if data.get("memory_exhausted"):
            self._recycled(process, str(exc))
        else:
            self._set_state(WorkerState.READY, "")

    def _recycled(self, process: WorkerProcess, detail: str) -> None:
        process.shutdown(timeout=5)
        if self._process is process:
            self._process = None
            self._info = None
        self._set_state(WorkerState.STOPPED, detail)
        self._maybe_restart()

    def _maybe_restart(self) -> None:
        if self.config.restart == "eager" and not self._closed:
            threading.Thread(target=self._background_start, daemon=True).start()

    def _background_start(self) -> None:
        with contextlib.suppress(VerifierError):
            self.start()

    def _notification(self, message: dict[str, Any]) -> None:
        params = message.get("params") or {}
        if message.get("method") == protocol.PROGRESS:
            request_id = int(params.get("id") or 0)
            self._last_progress[request_id] = str(params.get("message", ""))
            listener = self._progress.get(request_id)
            if listener is not None:
                listener(str(params.get("message", "")))

    # -- asynchronous submission (used by the asyncio layer and by --jobs) ---------------------
    def submit(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        progress: ProgressListener | None = None,
    ) -> Ticket:
        """Queue a request; requests run one at a time in submission order."""
        ticket = Ticket(self, method)
        # Not self._lock: a running request holds that one, and submit() must never block
        # (the language server calls it from its event loop).
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="tflsp-verify"
                )
            executor = self._executor

        def run() -> None:
            if not ticket.future.set_running_or_notify_cancel():
                return
            try:
                result = self.call(
                    method, params, timeout=timeout, progress=progress, ticket=ticket
                )
            except BaseException as exc:
                ticket.future.set_exception(exc)
            else:
                ticket.future.set_result(result)

        executor.submit(run)
        return ticket

    # -- convenience -------------------------------------------------------------------------
    def run_program(
        self, path: str, source: str | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        """Run a whole program as ``python path`` would; ``source`` replaces the file's text."""
        if source is None:
            source = Path(path).read_text(encoding="utf-8")
        params: dict[str, Any] = {"path": path, "source": source}
        result: dict[str, Any] = self.call(protocol.RUN_PROGRAM, params, timeout=timeout)
        return result

    def probe(
        self,
        params: dict[str, Any],
        *,
        timeout: float | None = None,
        progress: ProgressListener | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            protocol.PROBE, params, timeout=timeout, progress=progress
        )
        return result

    def stop(self) -> None:
        """Shut the worker down; the client can start again later unless :meth:`close` was called."""
        with self._lock:
            process, self._process = self._process, None
            self._info = None
            if process is not None:
                process.shutdown()
            self._set_state(WorkerState.STOPPED, "")

    def close(self) -> None:
        self._closed = True
        process = self._process
        if process is not None and self._state == WorkerState.BUSY:
            process.kill()  # do not wait for a long request to finish
        self.stop()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> VerifierClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _limit(memory_limit: int) -> str:
    return "no limit" if memory_limit <= 0 else f"{memory_limit / 1024**3:.1f} GiB address space"
