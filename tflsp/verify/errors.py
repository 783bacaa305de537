"""Errors the verifier client raises.  Every one carries a message a user can act on."""

from __future__ import annotations


class VerifierError(RuntimeError):
    """Base class: the request did not produce a result."""


class WorkerStartError(VerifierError):
    """The worker process could not be started or did not finish importing TensorFlow."""


class TensorFlowMissing(WorkerStartError):
    """TensorFlow (or tf-keras, for Keras 2) is not installed in the worker's interpreter."""


class WorkerCrashed(VerifierError):
    """The worker died while running a request (segfault, abort, out of memory, killed)."""

    def __init__(self, message: str, *, returncode: int | None = None, stderr_tail: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr_tail = stderr_tail


class WorkerTimeout(VerifierError):
    """The request ran longer than its timeout; the worker was killed.  ``phase`` is what the
    request last said it was doing ("importing model.py" for a module that hangs)."""

    def __init__(self, message: str, *, phase: str = ""):
        super().__init__(message)
        self.phase = phase


class RequestCancelled(VerifierError):
    """The caller cancelled the request; the worker was killed if it had started it."""


class RemoteError(VerifierError):
    """The worker answered with a JSON-RPC error (bad parameters, unloadable user code...)."""

    def __init__(self, code: int, message: str, data: object = None):
        super().__init__(message)
        self.code = code
        self.data = data
