"""The worker's request loop: read a request, run it, answer, repeat."""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from tflsp.verify import protocol
from tflsp.verify.agent.common import strip_ansi


class RequestFailed(Exception):
    """A handler refuses a request; becomes a JSON-RPC error with this code."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


class Agent:
    def __init__(self, reader: BinaryIO, writer: BinaryIO, *, keras: str, memory_limit: int):
        self.reader = reader
        self.writer = writer
        self.keras = keras
        self.memory_limit = memory_limit
        self.info: dict[str, Any] | None = None
        self.guard: Any = None
        self.current_id: int | None = None
        self.recycle = False
        self.loaders: Any = None
        self.session: Any = None  # the current verification's import (see agent.probes)
        self.handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            protocol.INITIALIZE: self.initialize,
            protocol.PING: self.ping,
            protocol.RUN_PROGRAM: self.run_program,
            protocol.PROBE: self.probe,
        }

    # -- transport ---------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(protocol.encode(message))

    def progress(self, message: str) -> None:
        """Tell the client what the current request is doing (for work-done progress)."""
        if self.current_id is not None:
            self.send(
                protocol.notification(
                    protocol.PROGRESS, {"id": self.current_id, "message": message}
                )
            )

    def serve(self) -> int:
        try:
            return self._loop()
        finally:
            if self.loaders is not None:
                self.loaders.close()
            if self.session is not None:
                self.session.close()

    def _loop(self) -> int:
        while True:
            line = self.reader.readline(protocol.MAX_LINE)
            if not line:
                return 0  # the client went away
            try:
                message = protocol.decode(line)
            except protocol.ProtocolError as exc:
                self.send(protocol.error(None, protocol.PARSE_ERROR, str(exc)))
                continue
            request_id = message.get("id")
            method = message.get("method")
            if method == protocol.SHUTDOWN:
                self.send(protocol.response(request_id, None))
                return 0
            self.current_id = request_id
            self.send(self.dispatch(request_id, method, message.get("params") or {}))
            self.current_id = None
            if self.recycle:
                # After MemoryError the heap may be fragmented or half-initialised objects
                # may linger; a fresh worker is cheaper than doubt.
                return 3

    def dispatch(self, request_id: Any, method: Any, params: dict[str, Any]) -> dict[str, Any]:
        handler = self.handlers.get(method) if isinstance(method, str) else None
        if handler is None:
            return protocol.error(
                request_id, protocol.METHOD_NOT_FOUND, f"unknown method {method!r}"
            )
        if method != protocol.INITIALIZE and self.info is None:
            self.initialize({})
        try:
            result = handler(params)
        except RequestFailed as exc:
            return protocol.error(request_id, exc.code, str(exc), exc.data)
        except MemoryError:
            self.recycle = True
            gc.collect()
            return protocol.error(
                request_id,
                protocol.INTERNAL_ERROR,
                f"the worker ran out of memory (limit {_gib(self.memory_limit)}); it will restart",
                {"memory_exhausted": True},
            )
        except Exception as exc:
            return protocol.error(
                request_id,
                protocol.INTERNAL_ERROR,
                f"{type(exc).__name__}: {strip_ansi(str(exc))}",
                {"traceback": traceback.format_exc()},
            )
        if isinstance(result, dict) and result.get("memory_exhausted"):
            self.recycle = True
            result["worker_recycled"] = True
        return protocol.response(request_id, result)

    # -- handlers ----------------------------------------------------------------------------
    def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.info is None:
            from tflsp.verify.agent.tfenv import TensorFlowUnavailable, import_tensorflow

            try:
                self.info = import_tensorflow(self.keras)
            except TensorFlowUnavailable as exc:
                raise RequestFailed(protocol.TENSORFLOW_MISSING, str(exc)) from exc
            from tflsp.verify.agent.isolation import StateGuard
            from tflsp.verify.agent.tfenv import warm_up

            start = time.perf_counter()
            warm_up()
            self.guard = StateGuard()
            # TensorFlow leaves ~10^6 long-lived objects; freezing them keeps every later full
            # collection (one per run, to drop the previous program) near 0.1 ms, not 120 ms.
            gc.freeze()
            self.info["warm_up_seconds"] = round(time.perf_counter() - start, 3)
            self.info["memory_limit"] = self.memory_limit
        if params.get("prewarm_loader"):
            self.loader_pool().prepare()
        return self.info

    def ping(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"pong": True, "time": time.time()}

    def run_program(self, params: dict[str, Any]) -> dict[str, Any]:
        from tflsp.verify.agent.programs import run_program

        if "path" not in params:
            raise RequestFailed(protocol.INVALID_PARAMS, "run_program needs 'path'")
        return run_program(params, self.guard)

    def probe(self, params: dict[str, Any]) -> dict[str, Any]:
        from tflsp.verify.agent.probes import run_probe

        return run_probe(self, params)

    def loader_pool(self) -> Any:
        if self.loaders is None:
            from tflsp.verify.agent.loader import LoaderPool

            self.loaders = LoaderPool(self.memory_limit)
        return self.loaders


def _gib(limit: int) -> str:
    return "none" if limit <= 0 else f"{limit / 1024**3:.1f} GiB address space"
