"""One worker subprocess: spawning, the reader threads, killing.  Stdlib only.

:class:`tflsp.verify.client.VerifierClient` owns at most one of these at a time and decides
when to start, restart or kill it; this class only moves bytes and notices death.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from tflsp.verify import protocol
from tflsp.verify.config import WorkerConfig

STDERR_LINES_KEPT = 200
SCRATCH_PREFIX = "tflsp-worker-"


def make_scratch() -> str:
    """A private temporary directory for one worker and everything it starts.

    The worker gets it as ``TMPDIR`` and as its working directory, so the scratch copies of
    user code, the files user code writes, AutoGraph's generated modules and the loader
    processes' files all land in it, and one ``rmtree`` removes them - also after a kill,
    when the worker itself could not clean up.  The name carries the client's pid: a folder
    whose client died without cleaning up is removed by the next client (see
    :func:`remove_orphans`).
    """
    remove_orphans()
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")


def remove_orphans() -> None:
    """Remove worker folders of clients that are gone (killed before they could clean up)."""
    root = Path(tempfile.gettempdir())
    uid = os.getuid() if hasattr(os, "getuid") else None
    with contextlib.suppress(OSError):
        for folder in root.glob(f"{SCRATCH_PREFIX}*"):
            pid_text = folder.name[len(SCRATCH_PREFIX) :].split("-", 1)[0]
            if not pid_text.isdigit() or int(pid_text) == os.getpid():
                continue
            try:
                if uid is not None and folder.lstat().st_uid != uid:
                    continue
                os.kill(int(pid_text), 0)
            except ProcessLookupError:
                shutil.rmtree(folder, ignore_errors=True)
            except OSError:
                continue


class WorkerExited(Exception):
    """Internal: the process ended while a request was waiting for its answer."""


class WorkerProcess:
    def __init__(
        self,
        config: WorkerConfig,
        *,
        on_notification: Callable[[dict[str, Any]], None] | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        self._on_notification = on_notification
        self._on_stderr = on_stderr
        self._ids = itertools.count(1)
        self._pending: dict[int, Future[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self.killed_by_us = False
        self.exited = threading.Event()
        self.scratch = make_scratch()
        env = config.environment()
        for name in ("TMPDIR", "TEMP", "TMP"):
            env[name] = self.scratch
        # A new session (process group) lets kill() take the worker's children with it, and
        # keeps a terminal's Ctrl-C away from the worker: the client decides what dies.
        try:
            self.proc = subprocess.Popen(
                config.command(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=self.scratch,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            self.remove_scratch()
            raise
        self.pid = self.proc.pid
        threading.Thread(
            target=self._read_stdout, name=f"tflsp-worker-{self.pid}-out", daemon=True
        ).start()
        threading.Thread(
            target=self._read_stderr, name=f"tflsp-worker-{self.pid}-err", daemon=True
        ).start()

    # -- sending -------------------------------------------------------------------------------
    def send(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[int, Future[dict[str, Any]]]:
        request_id = next(self._ids)
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self.exited.is_set():
                future.set_exception(WorkerExited())
                return request_id, future
            self._pending[request_id] = future
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(protocol.encode(protocol.request(request_id, method, params)))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail_pending()
        return request_id, future

    # -- reading -------------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                try:
                    message = protocol.decode(line)
                except protocol.ProtocolError:
                    self._stderr.append(f"[tflsp] unreadable protocol line: {line[:200]!r}")
                    continue
                if "id" in message and ("result" in message or "error" in message):
                    with self._lock:
                        future = self._pending.pop(message["id"], None)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif "method" in message and self._on_notification is not None:
                    with contextlib.suppress(Exception):
                        self._on_notification(message)
        except (OSError, ValueError):
            pass
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=10)
        self._fail_pending()
        if self.proc.poll() is not None:
            # The worker is gone; its loader children die with it (same process group) or
            # were killed with it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            self.remove_scratch()

    def remove_scratch(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        with contextlib.suppress(OSError, ValueError):
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", errors="replace").rstrip("\n")
                self._stderr.append(line)
                if self._on_stderr is not None:
                    with contextlib.suppress(Exception):
                        self._on_stderr(line)

    def _fail_pending(self) -> None:
        with self._lock:
            self.exited.set()
            pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(WorkerExited())

    # -- state and ending ------------------------------------------------------------------------
    @property
    def returncode(self) -> int | None:
        return self.proc.poll()

    def stderr_tail(self, lines: int = 25) -> str:
        return "\n".join(list(self._stderr)[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole process group (the worker and any fresh-process loaders)."""
        self.killed_by_us = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self._close_pipes()
        self.remove_scratch()

    def shutdown(self, timeout: float = 5.0) -> None:
        """Ask politely, then kill."""
        if self.returncode is None and not self.exited.is_set():
            _, future = self.send(protocol.SHUTDOWN)
            with contextlib.suppress(Exception):
                future.result(timeout=timeout)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)
        if self.returncode is None:
            self.kill()
        else:
            # Loader children of a worker that exited normally are already gone, but a
            # worker that exited on its own after MemoryError may have left one behind.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            self._close_pipes()
            self.remove_scratch()

    def _close_pipes(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.close()

    def describe_exit(self) -> str:
        code = self.returncode
        if code is None:
            return "the worker stopped answering"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"the worker died with {name}"
        return f"the worker exited with status {code}"
