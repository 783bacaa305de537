"""The tflsp language server (``tflsp serve``): a thin pygls adapter over the analyzer.

Layout: :mod:`~tflsp.server.transport` frames JSON-RPC on stdio or TCP and answers malformed
input; :mod:`~tflsp.server.protocol` routes text and notebook sync to tflsp's own store;
:mod:`~tflsp.server.handlers` answers the other LSP methods; :mod:`~tflsp.server.server`
schedules analysis and publishing; :mod:`~tflsp.server.workspace` keeps the open documents
(:mod:`~tflsp.server.documents`) with one :class:`~tflsp.analysis.engine.Analyzer` each;
:mod:`~tflsp.server.render`, :mod:`~tflsp.server.hover`, :mod:`~tflsp.server.actions` and
:mod:`~tflsp.server.lenses` turn results into LSP answers; :mod:`~tflsp.server.memory` keeps
the garbage collector out of keystrokes.  TensorFlow is never imported here: the verifier is
reached through :class:`~tflsp.server.verifier.VerifierBridge` (the real one,
:class:`~tflsp.server.worker_bridge.WorkerBridge`, drives worker processes);
:mod:`~tflsp.server.verification` runs the verifier commands, and
:mod:`~tflsp.server.verify_pins` / :mod:`~tflsp.server.verify_results` turn their results into
diagnostics and reports.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from tflsp.server.server import TflspServer
    from tflsp.server.verifier import VerifierBridge

log = logging.getLogger(__name__)


def create_server(verifier: VerifierBridge | None = None) -> TflspServer:
    from tflsp.codecache import generated_code

    # pygls, lsprotocol's ~560 attrs classes and the server's modules: most of start-up.
    with generated_code("server", attrs=True):
        from tflsp.server.server import TflspServer

    return TflspServer(verifier=verifier)


def serve_stdio(
    server: TflspServer | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Serve on stdin/stdout until the client exits; returns the process exit status."""
    server = server or create_server()
    from tflsp.server.transport import real_stdout, run_stdio

    out = stdout or real_stdout()

    def attach(watch: object) -> None:
        server.watch = watch  # type: ignore[assignment]

    return _run(lambda: run_stdio(server.protocol, stdin or sys.stdin.buffer, out, attach))


def serve_tcp(
    host: str,
    port: int,
    server: TflspServer | None = None,
    on_listening: Callable[[int], None] | None = None,
) -> int:
    """Serve the first client connecting to ``host:port`` (``port`` 0 picks a free one)."""
    server = server or create_server()
    from tflsp.server.transport import run_tcp

    def attach(watch: object) -> None:
        server.watch = watch  # type: ignore[assignment]

    return _run(lambda: run_tcp(server.protocol, host, port, attach, on_listening))


def _run(main: Callable[[], object]) -> int:
    try:
        asyncio.run(main())  # type: ignore[arg-type]
    except SystemExit as exc:  # the "exit" notification: 0 after "shutdown", 1 otherwise
        return int(exc.code or 0)
    except KeyboardInterrupt:
        return 130
    return 0


__all__ = ["create_server", "serve_stdio", "serve_tcp"]
