"""When the cyclic garbage collector runs: between keystrokes, never during one.

Analysis allocates many long-lived objects (trees, indexes, caches) and a few short reference
cycles per analysis (a block's context and the detector memos that point back at it).  Left to
itself, the collector starts a pass whenever enough objects were allocated, which means in the
middle of an analysis, and its occasional full passes rescan every cached tree of every open
document: tens of milliseconds added to a keystroke.  The server therefore turns automatic
collection off and collects itself:

- young objects after an analysis, once the client is idle; but never later than
  :data:`_YOUNG_LIMIT` new objects, even when keystrokes keep arriving (a client typing as fast
  as the server answers is never idle, and every uncollected context keeps the tree of a typed
  version of its block alive);
- the whole heap now and then, after which the survivors are frozen (:func:`gc.freeze`) so the
  next full passes skip them.  A frozen object in a cycle that becomes garbage later (an
  analysis replaced by the next keystroke) is never collected while it stays frozen, so the
  survivors are unfrozen and collected again at every ``didClose`` and, while documents stay
  open and are edited, every :data:`_DEEP_PERIOD` seconds when idle.  Nothing is frozen
  before it has been through a collection: freezing uncollected garbage would keep it.

Reference counting still frees everything that is not part of a cycle immediately.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

# How long to wait after a publish before collecting (a keystroke arriving meanwhile wins).
_AFTER_WORK = 0.01
_RETRY = 0.05
_PERIOD = 10.0  # collect now and then even when nothing is published
_FULL_EVERY = 50  # every so many young collections, one full pass (frozen objects skipped)
# Young objects (allocations minus deallocations since the last collection) that force a young
# collection even while busy.  One keystroke in a 400-line function leaves a few thousand; a
# young collection of this many costs about a millisecond.
_YOUNG_LIMIT = 20_000
_DEEP_PERIOD = 60.0  # seconds between passes over the frozen objects too, when idle


class IdleCollector:
    def __init__(self, busy: Callable[[], bool]) -> None:
        self.busy = busy
        self._handle: asyncio.TimerHandle | None = None
        self._full_pending = False
        self._deep_pending = False
        self._count = 0
        self._deep_at = time.monotonic()
        self._analysed_since_deep = False
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        gc.disable()
        self._tick()

    def _tick(self) -> None:
        if self._analysed_since_deep and time.monotonic() - self._deep_at >= _DEEP_PERIOD:
            self._deep_pending = True
        self.soon()
        self._timer = asyncio.get_event_loop().call_later(_PERIOD, self._tick)

    def soon(self, delay: float = _AFTER_WORK) -> None:
        if self._handle is None:
            self._handle = asyncio.get_event_loop().call_later(delay, self._collect)

    def analysed(self, opened: bool = False) -> None:
        """An analysis was published.  ``opened``: a document's caches were just filled."""
        self._analysed_since_deep = True
        if gc.get_count()[0] > _YOUNG_LIMIT:
            # Do not wait for an idle moment that may not come: a young pass is cheap.
            self._count += 1
            gc.collect(1)
        if opened:
            # Its objects go to the frozen set at the next full pass, once they survived it.
            self._full_pending = True
        self.soon()

    def closed(self) -> None:
        """A document's objects became garbage, frozen ones included: look at the whole heap."""
        self._deep_pending = True
        self.soon()

    def _collect(self) -> None:
        self._handle = None
        if self.busy():
            self.soon(_RETRY)
            return
        self._count += 1
        if self._deep_pending:
            self._deep_pending = self._full_pending = self._analysed_since_deep = False
            self._deep_at = time.monotonic()
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        elif self._full_pending or self._count % _FULL_EVERY == 0:
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
