"""The seam between the language server and the TensorFlow verifier worker.

The server never imports TensorFlow.  Code lenses and ``workspace/executeCommand`` call a
:class:`VerifierBridge`; the bridge is what talks to a worker process that does.  Until the
worker lands, :class:`UnavailableVerifier` answers every call with
:class:`VerifierUnavailable`, which the server turns into a ``window/showMessage`` and an
error result.

To wire the real worker in: subclass :class:`VerifierBridge` (or implement the same methods),
keep ``state`` up to date, and pass an instance to :func:`tflsp.server.create_server`
(``verifier=``).  Every method is a coroutine so that a slow TensorFlow run never blocks the
server's event loop.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class VerifierState(str, enum.Enum):
    UNAVAILABLE = "unavailable"  # no worker can be started (not wired in, TensorFlow missing)
    STOPPED = "stopped"
    STARTING = "starting"
    READY = "ready"
    BUSY = "busy"
    FAILED = "failed"


class VerifierUnavailable(RuntimeError):
    """Raised by a bridge that cannot run the verifier; the message is shown to the user."""


@dataclass(frozen=True)
class VerifyTarget:
    """What a lens points at: a class or a function in a document."""

    uri: str
    name: str
    line: int  # 0-based, as in LSP
    source: str = ""  # the module text at the time of the request
    path: str | None = None


@dataclass
class VerifyOutcome:
    """A verifier run's answer, returned as the ``workspace/executeCommand`` result."""

    ok: bool
    summary: str
    details: Sequence[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "summary": self.summary,
            "details": list(self.details),
            "data": dict(self.data),
        }


class VerifierBridge:
    """Interface the server uses; override every coroutine in a real implementation."""

    state: VerifierState = VerifierState.UNAVAILABLE

    async def verify_class(self, target: VerifyTarget) -> VerifyOutcome:
        raise NotImplementedError

    async def verify_function(self, target: VerifyTarget) -> VerifyOutcome:
        raise NotImplementedError

    async def verify_catalog(self, select: Sequence[str] = ()) -> VerifyOutcome:
        raise NotImplementedError

    async def restart(self) -> VerifierState:
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the worker.  Started at ``shutdown`` and not awaited (the client may send
        ``exit`` at once), so a worker must also end by itself when the server process does."""


class UnavailableVerifier(VerifierBridge):
    """The default until the worker is wired in: every request is refused with a clear reason."""

    state = VerifierState.UNAVAILABLE

    def __init__(self, reason: str = "The TensorFlow verifier is not available yet.") -> None:
        self.reason = reason

    async def verify_class(self, target: VerifyTarget) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def verify_function(self, target: VerifyTarget) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def verify_catalog(self, select: Sequence[str] = ()) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def restart(self) -> VerifierState:
        raise VerifierUnavailable(self.reason)
