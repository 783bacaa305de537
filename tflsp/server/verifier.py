"""The seam between the language server and the TensorFlow verifier worker.

The server never imports TensorFlow.  Code lenses and ``workspace/executeCommand`` call a
:class:`VerifierBridge`; the bridge talks to a worker process that does.  The real one is
:class:`tflsp.server.worker_bridge.WorkerBridge`; :class:`UnavailableVerifier` refuses every
call with a reason (for embedding the server without a verifier).

A bridge runs probes and reports what happened; turning the results into diagnostics, a
report and progress notifications is the server's job (:mod:`tflsp.server.verification`).
Every method that may wait is a coroutine, so a slow TensorFlow run never blocks the event
loop; cancelling the coroutine must cancel the run.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tflsp.settings import Settings


class VerifierState(str, enum.Enum):
    UNAVAILABLE = "unavailable"  # no worker can be started (a bridge without a verifier)
    DISABLED = "disabled"  # verifier-enabled = false (for instance an untrusted workspace)
    STOPPED = "stopped"
    STARTING = "starting"
    READY = "ready"
    BUSY = "busy"
    FAILED = "failed"


class VerifierUnavailable(RuntimeError):
    """The verifier refuses to run (turned off, not available); the message is shown."""


class VerifierFailed(RuntimeError):
    """A run did not produce a result (worker crash, timeout, start failure); the message says
    what happened and that the next request gets a fresh worker."""


# progress(message, percentage or None); always called on the event loop's thread.
Progress = Callable[[str, "int | None"], None]
StateListener = Callable[[VerifierState, str], None]


@dataclass(frozen=True)
class VerifierOptions:
    """The verifier settings (``verifier-*`` keys) that shape workers and requests."""

    enabled: bool = True
    timeout: float = 60.0
    memory_limit: int = 6 * 1024**3
    prewarm: bool = False
    python: str = ""  # empty: the server's own interpreter
    keras: str = "auto"  # "3", "2", or "auto": the file's Keras as the analyzer decides it

    @classmethod
    def from_settings(cls, settings: Settings) -> VerifierOptions:
        return cls(
            enabled=settings.verifier_enabled,
            timeout=settings.verifier_timeout,
            memory_limit=settings.verifier_memory_limit,
            prewarm=settings.verifier_prewarm,
            python=settings.verifier_python,
            keras=settings.verifier_keras,
        )

    def keras_for(self, detected: int | str | None = None) -> str:
        """The worker's Keras: the setting when fixed, else the file's, else 3."""
        if self.keras in ("3", "2"):
            return self.keras
        text = str(detected) if detected is not None else ""
        return text if text in ("3", "2") else "3"


@dataclass(frozen=True)
class VerifyTarget:
    """What a lens points at: a class or a function in a document."""

    uri: str
    name: str  # dotted for methods: "Outer.step"
    line: int  # 0-based, as in LSP
    source: str = ""  # the module text at the time of the request (unsaved edits included)
    path: str | None = None  # shown in reports; the worker names its scratch copy after it
    kind: str = ""  # "layer" | "model" | "function" ("" when the analyzer did not say)
    keras: str = ""  # "3" | "2": which worker runs it ("" = the bridge's default)
    probes: tuple[str, ...] = ()  # explicit probe kinds; empty = chosen from ``kind``
    timeout: float | None = None  # per probe, seconds (None = the bridge's setting)


@dataclass
class VerifyOutcome:
    """A verifier run's answer, returned as the ``workspace/executeCommand`` result.

    ``data["results"]`` holds the probe results (or catalog results) as the worker sent them;
    the server adds ``diagnostics``, ``reportUri`` and ``state``.  ``report`` is Markdown.
    """

    ok: bool
    summary: str
    details: Sequence[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    report: str = ""

    def as_json(self) -> dict[str, Any]:
        out = {
            "ok": self.ok,
            "summary": self.summary,
            "details": list(self.details),
            "data": dict(self.data),
        }
        if self.report:
            out["report"] = self.report
        return out


class VerifierBridge:
    """Interface the server uses; override every coroutine in a real implementation."""

    state: VerifierState = VerifierState.UNAVAILABLE
    detail: str = ""

    def set_listener(self, listener: StateListener | None) -> None:
        """Called with every state change (on the event loop's thread)."""
        self._listener = listener

    def _set_state(self, state: VerifierState, detail: str = "") -> None:
        self.state = state
        self.detail = detail
        listener = getattr(self, "_listener", None)
        if listener is not None:
            listener(state, detail)

    def configure(self, options: VerifierOptions) -> None:
        """New settings.  Must not start a worker; may stop one (turned off, new interpreter)."""

    async def prewarm(self) -> None:
        """Start a worker now if the settings ask for it."""

    async def verify_class(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        raise NotImplementedError

    async def verify_function(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        raise NotImplementedError

    async def verify_catalog(
        self, select: Sequence[str] = (), progress: Progress | None = None
    ) -> VerifyOutcome:
        raise NotImplementedError

    async def restart(self) -> VerifierState:
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the worker.  Started at ``shutdown`` and not awaited (the client may send
        ``exit`` at once), so a worker must also end by itself when the server process does."""


class UnavailableVerifier(VerifierBridge):
    """Every request is refused with a clear reason (a server embedded without a verifier)."""

    state = VerifierState.UNAVAILABLE

    def __init__(self, reason: str = "The TensorFlow verifier is not available.") -> None:
        self.reason = reason
        self.detail = reason

    async def verify_class(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def verify_function(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def verify_catalog(
        self, select: Sequence[str] = (), progress: Progress | None = None
    ) -> VerifyOutcome:
        raise VerifierUnavailable(self.reason)

    async def restart(self) -> VerifierState:
        raise VerifierUnavailable(self.reason)
