"""The TensorFlow verifier: run code in a separate worker to prove what static analysis suspects.

Layout (only the modules marked *worker* import TensorFlow, and only inside the worker):

- :mod:`~tflsp.verify.client`, :mod:`~tflsp.verify.aio` - the caller's side: a long-lived
  worker with a state machine, timeouts, memory limit and restart; sync and asyncio APIs.
- :mod:`~tflsp.verify.worker` (*worker*) - ``python -m tflsp.verify.worker``; the request loop
  and handlers live in :mod:`tflsp.verify.agent`.
- :mod:`~tflsp.verify.expectations`, :mod:`~tflsp.verify.checks` - the ``[runtime]`` schema of
  ``pattern.toml`` and the comparison of a run with it.
- :mod:`~tflsp.verify.catalog_check` - ``tflsp verify --catalog``.
- :mod:`~tflsp.verify.record` - the verification record the docs render.
- :mod:`~tflsp.verify.report`, :mod:`~tflsp.verify.hints` - readable probe reports with
  pointers into the catalog.

Importing this package imports no TensorFlow.
"""

from tflsp.verify.aio import AsyncVerifier
from tflsp.verify.client import Ticket, VerifierClient, WorkerState
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

__all__ = [
    "AsyncVerifier",
    "RemoteError",
    "RequestCancelled",
    "TensorFlowMissing",
    "Ticket",
    "VerifierClient",
    "VerifierError",
    "WorkerConfig",
    "WorkerCrashed",
    "WorkerStartError",
    "WorkerState",
    "WorkerTimeout",
]
