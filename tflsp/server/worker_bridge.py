"""The real verifier bridge: probes run in :class:`tflsp.verify.AsyncVerifier` workers.

One worker per Keras version, started on the first request that needs it (or at once with
``verifier-prewarm``), restarted in the background after a crash, a timeout or a cancel, and
stopped when the settings turn the verifier off or change its interpreter or memory limit.
Nothing here imports TensorFlow: the workers are separate processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tflsp.server.verifier import (
    Progress,
    VerifierBridge,
    VerifierFailed,
    VerifierOptions,
    VerifierState,
    VerifierUnavailable,
    VerifyOutcome,
    VerifyTarget,
)
from tflsp.verify import protocol
from tflsp.verify.aio import AsyncVerifier
from tflsp.verify.client import WorkerState
from tflsp.verify.config import WorkerConfig
from tflsp.verify.errors import (
    RemoteError,
    RequestCancelled,
    TensorFlowMissing,
    VerifierError,
    WorkerStartError,
)

if TYPE_CHECKING:
    from tflsp.catalog import Pattern

log = logging.getLogger(__name__)

# What "verify" means for each kind of target, decided from what the probes can do: tracking
# needs a Layer or Model; modes runs functions, layers and models eagerly and as a graph;
# saveload (a .keras round trip in a fresh process, ~1 s and a second TensorFlow import the
# first time) is about models, which are what people save.
PROBES_BY_KIND = {
    "layer": ("tracking", "modes"),
    "model": ("tracking", "modes", "saveload"),
    "function": ("modes",),
}
CLASS_PROBES = PROBES_BY_KIND["layer"]
KNOWN_PROBES = ("tracking", "modes", "saveload")


def probes_for(target: VerifyTarget, default: Sequence[str]) -> tuple[str, ...]:
    if target.probes:
        unknown = [p for p in target.probes if p not in KNOWN_PROBES]
        if unknown:
            raise ValueError(f"unknown probe(s) {unknown}; known: {list(KNOWN_PROBES)}")
        return tuple(dict.fromkeys(target.probes))
    return PROBES_BY_KIND.get(target.kind, tuple(default))


class WorkerBridge(VerifierBridge):
    def __init__(
        self,
        options: VerifierOptions | None = None,
        *,
        catalog: Callable[[], Iterable[Pattern]] | None = None,
    ) -> None:
        self.options = options or VerifierOptions()
        self.catalog = catalog
        self._workers: dict[str, AsyncVerifier] = {}
        self._closing: set[asyncio.Future[Any]] = set()
        self.state = VerifierState.STOPPED if self.options.enabled else VerifierState.DISABLED
        self.detail = ""
        self._running = ""  # what the busy worker does, for the state's detail
        self.starts = 0  # workers created (tests read it)

    # -- settings and workers ------------------------------------------------------------------
    def configure(self, options: VerifierOptions) -> None:
        self.options = options
        if not options.enabled:
            self._stop_all()
            if self.state != VerifierState.DISABLED:
                self._set_state(VerifierState.DISABLED, "verifier-enabled is false")
            return
        for keras, worker in list(self._workers.items()):
            if not _same_process(worker.client.config, self._config(keras)):
                self._stop(keras)
        # Turned back on, or every worker stopped for a new interpreter or memory limit.
        if self.state == VerifierState.DISABLED or (
            not self._workers and self.state in (VerifierState.READY, VerifierState.BUSY)
        ):
            self._set_state(VerifierState.STOPPED, "")

    def _config(self, keras: str) -> WorkerConfig:
        return WorkerConfig(
            keras=keras,
            python=self.options.python or sys.executable,
            timeout=self.options.timeout,
            memory_limit=self.options.memory_limit,
            # A language server wants the next request to find a warm worker.
            restart="eager",
        )

    def _worker(self, keras: str) -> AsyncVerifier:
        if not self.options.enabled:
            raise VerifierUnavailable("the verifier is turned off (verifier-enabled = false)")
        config = self._config(keras)
        worker = self._workers.get(keras)
        if worker is not None and _same_process(worker.client.config, config):
            return worker
        if worker is not None:
            self._stop(keras)
        holder: list[AsyncVerifier] = []

        def on_state(state: WorkerState, detail: str) -> None:
            # A replaced or stopped worker's last words must not overwrite the current state.
            if holder and self._workers.get(keras) is holder[0]:
                self._worker_state(keras, state, detail)

        worker = AsyncVerifier(config, on_state=on_state)
        holder.append(worker)
        self._workers[keras] = worker
        self.starts += 1
        return worker

    def _worker_state(self, keras: str, state: WorkerState, detail: str) -> None:
        if not self.options.enabled:
            return
        worker = self._workers.get(keras)
        info = worker.info if worker is not None else None
        if state == WorkerState.BUSY and self._running:
            detail = self._running
        elif state == WorkerState.READY and info:
            detail = f"TensorFlow {info.get('tensorflow')}, Keras {info.get('keras')}"
        elif f"Keras {keras}" not in detail:
            detail = f"Keras {keras}: {detail}" if detail else f"Keras {keras}"
        self._set_state(VerifierState(state.value), detail)

    def _stop(self, keras: str) -> None:
        worker = self._workers.pop(keras, None)
        if worker is None:
            return
        # close() blocks (a polite shutdown, then a kill): run it off the loop.
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            worker.client.close()
            return
        future = loop.run_in_executor(None, worker.client.close)
        self._closing.add(future)
        future.add_done_callback(self._closing.discard)

    def _stop_all(self) -> None:
        for keras in list(self._workers):
            self._stop(keras)

    def _default_keras(self) -> str:
        return self.options.keras_for(None)

    # -- requests --------------------------------------------------------------------------------
    async def prewarm(self) -> None:
        if not (self.options.enabled and self.options.prewarm):
            return
        with contextlib.suppress(VerifierError):  # the state listener already says why
            await self._worker(self._default_keras()).start()

    async def restart(self) -> VerifierState:
        if not self.options.enabled:
            raise VerifierUnavailable("the verifier is turned off (verifier-enabled = false)")
        self._stop_all()
        await asyncio.gather(*list(self._closing), return_exceptions=True)
        self._set_state(VerifierState.STOPPED, "restarting")
        try:
            await self._worker(self._default_keras()).start()
        except (TensorFlowMissing, WorkerStartError) as exc:
            raise VerifierFailed(_start_failure(exc, self.options)) from exc
        return self.state

    async def verify_class(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        return await self._verify(target, probes_for(target, CLASS_PROBES), progress)

    async def verify_function(
        self, target: VerifyTarget, progress: Progress | None = None
    ) -> VerifyOutcome:
        return await self._verify(target, probes_for(target, ("modes",)), progress)

    async def _verify(
        self, target: VerifyTarget, kinds: Sequence[str], progress: Progress | None
    ) -> VerifyOutcome:
        keras = target.keras or self._default_keras()
        worker = self._worker(keras)
        report = progress or (lambda message, percentage: None)
        timeout = target.timeout or self.options.timeout
        if worker.state in (WorkerState.STOPPED, WorkerState.FAILED):
            report(f"starting the TensorFlow worker (Keras {keras})", 0)
        results: list[dict[str, Any]] = []
        # One session per click: the probes share one import of the user's module.
        session = uuid.uuid4().hex
        for index, kind in enumerate(kinds):
            share = 100 // len(kinds)
            base = index * share
            report(f"{kind} ({index + 1}/{len(kinds)})", base)

            def forward(message: str, kind: str = kind, base: int = base) -> None:
                report(f"{kind}: {message}", base)

            params = {
                "kind": kind,
                "path": target.path or "untitled.py",
                "source": target.source,
                "target": target.name,
                "session": session,
            }
            self._running = f"{kind} probe on {target.name} (Keras {keras})"
            try:
                result = await worker.probe(params, timeout=timeout, progress=forward)
            except (TensorFlowMissing, WorkerStartError) as exc:
                raise VerifierFailed(_start_failure(exc, self.options)) from exc
            except RemoteError as exc:
                # The worker is fine; this request was not (bad directive, bad parameters).
                result = _error_result(kind, target, str(exc), exc.code)
            except RequestCancelled as exc:
                raise VerifierFailed(str(exc)) from exc
            except VerifierError as exc:  # crash, timeout: the message says what comes next
                raise VerifierFailed(str(exc)) from exc
            result["keras_major"] = keras
            results.append(result)
        report("done", 100)
        return _outcome(target, results, keras)

    async def verify_catalog(
        self, select: Sequence[str] = (), progress: Progress | None = None
    ) -> VerifyOutcome:
        from tflsp.verify.catalog_check import CatalogRun, plan

        if not self.options.enabled:
            raise VerifierUnavailable("the verifier is turned off (verifier-enabled = false)")
        patterns = _select(list(self.catalog() if self.catalog else _load_catalog()), select)
        keras = self._default_keras()
        tasks = plan(patterns, [keras])
        if not tasks:
            raise ValueError("no catalog example to run for this selection")
        loop = asyncio.get_running_loop()
        report = progress or (lambda message, percentage: None)
        done = [0]

        def on_result(result: Any) -> None:  # runs on a runner thread
            def forward() -> None:
                done[0] += 1
                report(
                    f"{result.pattern} {result.example}.py: {result.status}",
                    int(100 * done[0] / len(tasks)),
                )

            loop.call_soon_threadsafe(forward)

        runner = CatalogRun(self._config, on_result=on_result)
        previous = (self.state, self.detail)
        self._set_state(VerifierState.BUSY, f"verifying {len(tasks)} catalog examples")
        report(f"starting a TensorFlow worker for {len(tasks)} examples (Keras {keras})", 0)
        try:
            results = await loop.run_in_executor(None, runner.run, tasks)
        except asyncio.CancelledError:
            await loop.run_in_executor(None, runner.cancel)
            raise
        finally:
            self._set_state(*previous)
        if runner.fatal:
            raise VerifierFailed(_start_failure(TensorFlowMissing(runner.fatal[0]), self.options))
        counts = {s: sum(1 for r in results if r.status == s) for s in ("pass", "fail", "error")}
        counts["skip"] = sum(1 for r in results if r.status == "skip")
        failed = [r for r in results if r.status in ("fail", "error")]
        summary = (
            f"catalog (Keras {keras}): {counts['pass']} passed, {counts['fail']} failed, "
            f"{counts['error']} errors, {counts['skip']} skipped"
        )
        details = [
            f"{r.pattern} {r.name} {r.example}.py: {r.status}" + (f" ({r.note})" if r.note else "")
            for r in failed
        ]
        return VerifyOutcome(
            ok=not failed,
            summary=summary,
            details=details,
            data={
                "kind": "catalog",
                "keras": keras,
                "counts": counts,
                "results": [r.as_dict() for r in results],
                "runs": runner.runs,
            },
        )

    async def close(self) -> None:
        workers = list(self._workers.values())
        self._workers.clear()
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(None, w.client.close) for w in workers),
            return_exceptions=True,
        )
        if self.options.enabled:
            self._set_state(VerifierState.STOPPED, "")


def _same_process(a: WorkerConfig, b: WorkerConfig) -> bool:
    """Would these configs start the same worker?  (The timeout is per request.)"""
    return (a.keras, a.python, a.memory_limit) == (b.keras, b.python, b.memory_limit)


def _start_failure(exc: Exception, options: VerifierOptions) -> str:
    python = options.python or sys.executable
    hint = (
        f" Install TensorFlow for {python} (pip install 'tflsp[tf]') or point the "
        "verifier-python setting at an interpreter that has it."
        if isinstance(exc, TensorFlowMissing)
        else ""
    )
    return f"The TensorFlow verifier could not start: {str(exc).rstrip('.')}.{hint}"


def _error_result(kind: str, target: VerifyTarget, message: str, code: int) -> dict[str, Any]:
    reason = {
        protocol.USER_CODE_ERROR: "the code cannot be loaded",
        protocol.INVALID_PARAMS: "bad request",
    }.get(code, "the worker failed")
    return {
        "probe": kind,
        "target": target.name,
        "path": target.path,
        "outcome": "error",
        "error": f"{reason}: {message}",
        "findings": [],
        "observations": {"outcome": "error"},
        "details": {},
    }


def _outcome(target: VerifyTarget, results: list[dict[str, Any]], keras: str) -> VerifyOutcome:
    outcomes = [str(r.get("outcome")) for r in results]
    ok = all(o in ("pass", "skip") for o in outcomes)
    parts = ", ".join(f"{r.get('probe')} {_word(str(r.get('outcome')))}" for r in results)
    versions = next((r.get("versions") for r in results if r.get("versions")), None) or {}
    seconds = sum(float(r.get("seconds") or 0) for r in results)
    where = (
        f"TensorFlow {versions.get('tensorflow')}, Keras {versions.get('keras')}"
        if versions
        else f"Keras {keras}"
    )
    summary = f"{target.name}: {parts} ({where}, {seconds:.1f} s)"
    details = [
        f"{r.get('probe')}: {f['severity']}: {f['message']}"
        for r in results
        for f in r.get("findings", [])
    ]
    details += [f"{r.get('probe')}: {r['error']}" for r in results if r.get("error")]
    return VerifyOutcome(
        ok=ok,
        summary=summary,
        details=details,
        data={
            "kind": target.kind,
            "target": target.name,
            "keras": keras,
            "versions": versions,
            "results": results,
        },
    )


def _word(outcome: str) -> str:
    words = {"pass": "passed", "fail": "FAILED", "error": "could not run", "skip": "skipped"}
    return words.get(outcome, outcome)


def _load_catalog() -> list[Pattern]:
    from tflsp.catalog import load_catalog

    return list(load_catalog())


def _select(patterns: list[Pattern], select: Sequence[str]) -> list[Pattern]:
    """Codes, code prefixes (``TFL1``) or names; nothing selected means the whole catalog."""
    if not select:
        return patterns
    chosen: list[Pattern] = []
    for selector in (s.strip() for s in select if s.strip()):
        matched = [
            p
            for p in patterns
            if p.code.startswith(selector.upper()) or selector.lower() in (p.name, p.slug.lower())
        ]
        if not matched:
            raise ValueError(f"unknown pattern selector {selector!r}")
        chosen.extend(p for p in matched if p not in chosen)
    return sorted(chosen, key=lambda p: p.code)
