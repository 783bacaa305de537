"""When the cyclic garbage collector runs: between keystrokes, never during one.

Analysis allocates many long-lived objects (trees, indexes, caches) and almost no reference
cycles.  Left to itself, the collector starts a pass whenever enough objects were allocated,
which means in the middle of an analysis, and its occasional full passes rescan every cached
tree of every open document: tens of milliseconds added to a keystroke.  The server therefore
turns automatic collection off, collects young objects when it is idle, and freezes the objects
of a freshly opened document (:func:`gc.freeze`) so full passes skip them.  Reference counting
still frees everything that is not part of a cycle immediately.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

# How long to wait after a publish before collecting (a keystroke arriving meanwhile wins).
_AFTER_WORK = 0.01
_RETRY = 0.05
_PERIOD = 10.0  # collect now and then even when nothing is published
_FULL_EVERY = 50  # every so many young collections, one full pass


class IdleCollector:
    def __init__(self, busy: Callable[[], bool]) -> None:
        self.busy = busy
        self._handle: asyncio.TimerHandle | None = None
        self._full_pending = False
        self._count = 0
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        gc.disable()
        self._tick()

    def _tick(self) -> None:
        self.soon()
        self._timer = asyncio.get_event_loop().call_later(_PERIOD, self._tick)

    def soon(self, delay: float = _AFTER_WORK) -> None:
        if self._handle is None:
            self._handle = asyncio.get_event_loop().call_later(delay, self._collect)

    def opened(self) -> None:
        """A document's caches were just filled: keep them out of every future full pass."""
        gc.freeze()

    def closed(self) -> None:
        """A document's objects became garbage: let the next pass see the whole heap again."""
        gc.unfreeze()
        self._full_pending = True
        self.soon()

    def _collect(self) -> None:
        self._handle = None
        if self.busy():
            self.soon(_RETRY)
            return
        self._count += 1
        if self._full_pending or self._count % _FULL_EVERY == 0:
            self._full_pending = False
            gc.collect()
            gc.freeze()
        else:
            gc.collect(1)

    def stop(self) -> None:
        for handle in (self._handle, self._timer):
            if handle is not None:
                handle.cancel()
        gc.enable()
