"""asyncio face of the verifier, for the language server.  Stdlib only.

The worker is driven by :class:`~tflsp.verify.client.VerifierClient` on a background thread;
this class hands results back to the event loop, so the loop never blocks on TensorFlow::

    verifier = AsyncVerifier(WorkerConfig(keras="3", restart="eager"), on_state=show_status)
    task = asyncio.ensure_future(verifier.probe({"kind": "tracking", "path": uri_path,
                                                 "source": text, "target": "MyLayer"},
                                                progress=report_progress))
    ...
    task.cancel()          # kills the worker if the probe already runs; a fresh one follows

``on_state`` and ``progress`` callbacks always run on the event loop's thread.  Requests run
one at a time per worker in submission order; a cancelled queued request never starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tflsp.verify import protocol
from tflsp.verify.client import VerifierClient, WorkerState
from tflsp.verify.config import WorkerConfig


class AsyncVerifier:
    def __init__(
        self,
        config: WorkerConfig | None = None,
        *,
        on_state: Callable[[WorkerState, str], None] | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self._loop = loop
        self._on_state = on_state
        self.client = VerifierClient(config, on_state=self._state_changed)

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def _state_changed(self, state: WorkerState, detail: str) -> None:
        if self._on_state is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._on_state, state, detail)

    def _threadsafe(self, callback: Callable[[str], None] | None) -> Callable[[str], None] | None:
        if callback is None:
            return None
        loop = self._event_loop()

        def forward(message: str) -> None:
            loop.call_soon_threadsafe(callback, message)

        return forward

    @property
    def state(self) -> WorkerState:
        return self.client.state

    @property
    def info(self) -> dict[str, Any] | None:
        return self.client.info

    async def start(self) -> dict[str, Any]:
        """Start (pre-warm) the worker; returns its versions."""
        loop = self._event_loop()
        info: dict[str, Any] = await loop.run_in_executor(None, self.client.start)
        return info

    async def request(
        self,
        method: str,
        params: dict[str, Any],
        *,
        timeout: float | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> Any:
        self._event_loop()
        ticket = self.client.submit(
            method, params, timeout=timeout, progress=self._threadsafe(progress)
        )
        try:
            return await asyncio.wrap_future(ticket.future)
        except asyncio.CancelledError:
            ticket.cancel()
            raise

    async def probe(
        self,
        params: dict[str, Any],
        *,
        timeout: float | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """Run one probe: ``params`` as for :meth:`VerifierClient.probe`."""
        result: dict[str, Any] = await self.request(
            protocol.PROBE, params, timeout=timeout, progress=progress
        )
        return result

    async def run_program(
        self, path: str, source: str, *, timeout: float | None = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = await self.request(
            protocol.RUN_PROGRAM, {"path": path, "source": source}, timeout=timeout
        )
        return result

    async def close(self) -> None:
        await self._event_loop().run_in_executor(None, self.client.close)
