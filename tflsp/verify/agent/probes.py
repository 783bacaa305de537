"""Probe dispatch: import the user's code once per verification, run one probe, report.

Every probe returns the same envelope::

    {"probe": "tracking", "target": "Scale", "kind": "layer",
     "outcome": "pass" | "fail" | "error" | "skip",
     "observations": {...numbers and strings that expectations compare...},
     "findings": [{"message": ..., "detail": ..., "line": ..., "severity": "error" | "warning" |
                   "info", "patterns": [the one catalog code the cause matches, if any]}],
     "details": {..., "plan": how the target was built and called},
     "exception": {...} | None, "output": {"stdout": ..., "stderr": ...}, "options": {...},
     "versions": {...}, "seconds": ...}

``skip`` means the probe does not apply (a function has no weights to track, Keras 3 code in
a Keras 2 worker); ``error`` means it applies but could not run (the reason says what to give).

A request may carry a ``session`` token: probes of the same session on the same source share
one import of the user's module (and one scratch folder); module state a probe changes is put
back before the next one.  A new token, or another source, imports afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import itertools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tflsp.verify import protocol
from tflsp.verify.agent.capture import OutputCapture, fresh_warnings
from tflsp.verify.agent.common import describe_exception, rename_paths
from tflsp.verify.agent.inputs import PlanError, TargetBroken
from tflsp.verify.agent.server import RequestFailed
from tflsp.verify.agent.usercode import (
    ModuleCheckpoint,
    UserCodeExit,
    exit_message,
    import_module,
    user_code,
)
from tflsp.verify.directives import DirectiveError, find_directive, normalise

_module_ids = itertools.count(1)
_probe_ids = itertools.count(1)


class ProbeError(Exception):
    """The probe cannot run on this target (wrong kind, missing arguments...)."""


class ProbeSkipped(Exception):
    """The probe does not apply to this target; the message says why."""


@dataclass
class Session:
    """One verification's import of the user's module, shared by its probes."""

    key: tuple[str, str, str]
    folder: Path
    script: Path
    home: Path | None
    files: dict[str, str]
    module: Any = None
    failure: dict[str, Any] | None = None  # the import failed: every probe reports this
    checkpoint: ModuleCheckpoint | None = None
    registrations: list[tuple[dict[Any, Any], dict[Any, Any]]] = field(default_factory=list)
    siblings: dict[str, Any] = field(default_factory=dict)
    plans: dict[str, Any] = field(default_factory=dict)
    import_seconds: float = 0.0

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.module is not None:
            sys.modules.pop(self.module.__name__, None)


def _registries() -> list[dict[Any, Any]]:
    from tflsp.verify.agent.isolation import StateGuard

    return StateGuard._custom_object_registries()


@dataclass
class ProbeContext:
    agent: Any
    kind: str
    display_path: str
    source: str
    target_name: str
    options: dict[str, Any]
    session: Session
    scratch: Path  # this probe's own folder (saved models...), inside the session's
    findings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def script(self) -> Path:
        return self.session.script

    @property
    def files(self) -> dict[str, str]:
        return self.session.files

    @property
    def home(self) -> Path | None:
        return self.session.home

    @property
    def module(self) -> Any:
        return self.load_module()

    def load_module(self) -> Any:
        """The user's module, imported once per session (its top-level code runs once)."""
        session = self.session
        if session.failure is not None:
            raise ProbeError(session.failure["message"])
        if session.module is not None:
            return session.module
        name = f"tflsp_user_{os.getpid()}_{next(_module_ids)}_{session.script.stem}"
        before_modules = set(sys.modules)
        before_registries = [dict(r) for r in _registries()]
        self.progress(f"importing {Path(self.display_path).name}")
        started = time.perf_counter()
        try:
            module, _out, _err = import_module(name, session.script, session.files)
        except UserCodeExit as exc:
            session.failure = {"message": str(exc), "line": exc.line}
            raise ProbeError(str(exc)) from None
        except Exception as exc:
            description = describe_exception(exc, session.files)
            where = f" (line {description['line']})" if description.get("line") else ""
            message = (
                f"importing {Path(self.display_path).name} failed{where}: "
                f"{description['type']}: {description['message']}"
            )
            session.failure = {
                "message": message,
                "line": description.get("line"),
                "exception": description,
            }
            raise ProbeError(message) from None
        session.import_seconds = time.perf_counter() - started
        session.module = module
        prefixes = tuple(os.path.join(str(f), "") for f in (session.folder, session.home) if f)
        session.siblings = {
            n: sys.modules[n]
            for n in set(sys.modules) - before_modules
            if n != name and (getattr(sys.modules[n], "__file__", None) or "").startswith(prefixes)
        }
        for registry, before in zip(_registries(), before_registries, strict=False):
            added = {k: v for k, v in registry.items() if before.get(k) is not v}
            if added:
                session.registrations.append((registry, added))
        session.checkpoint = ModuleCheckpoint(module)
        return module

    def restore_module(self, created: list[tuple[Any, Any]] = ()) -> None:  # type: ignore[assignment]
        """Put the module's state back as the import left it."""
        if self.session.checkpoint is not None:
            self.session.checkpoint.restore(list(created))

    @property
    def plan_key(self) -> str:
        # The same target asked for with other arguments or inputs gets a plan of its own.
        return f"{self.target_name} {sorted(self.options.items())!r}"

    def cached_plan(self) -> Any:
        return self.session.plans.get(self.plan_key)

    def remember_plan(self, plan: Any) -> None:
        self.session.plans[self.plan_key] = plan

    def target(self, module: Any = None) -> Any:
        obj = module if module is not None else self.load_module()
        for part in self.target_name.split("."):
            if not hasattr(obj, part):
                raise ProbeError(f"{self.display_path} defines no {self.target_name!r}")
            obj = getattr(obj, part)
        return obj

    def line_of(self, obj: Any) -> int | None:
        obj = getattr(obj, "python_function", obj)
        with contextlib.suppress(TypeError, OSError):
            return inspect.getsourcelines(obj)[1]
        return None

    def find(
        self,
        message: str,
        line: int | None = None,
        severity: str = "warning",
        patterns: tuple[str, ...] = (),
        detail: str | None = None,
        *,
        cause_known: bool = False,
    ) -> None:
        """``patterns``: the catalog code of the pitfall this observation is the runtime face
        of (one, when the probe knows the cause; the report adds a symptom match otherwise).
        ``cause_known``: the probe knows the cause and no catalog pattern describes it, so no
        symptom match is added.  ``detail``: the full text (an exception's whole message) when
        ``message`` is a summary."""
        finding: dict[str, Any] = {
            "message": rename_paths(message, self.files),
            "line": line,
            "severity": severity,
        }
        if patterns:
            finding["patterns"] = list(patterns)
        elif cause_known:
            finding["patterns"] = []
        if detail and detail.strip() != message.strip():
            finding["detail"] = rename_paths(detail, self.files)
        self.findings.append(finding)

    def progress(self, message: str) -> None:
        self.agent.progress(message)


KINDS = ("tracking", "modes", "saveload")


def _runner(kind: str) -> Callable[[ProbeContext], dict[str, Any]]:
    module = importlib.import_module(f"tflsp.verify.agent.{kind}")
    runner: Callable[[ProbeContext], dict[str, Any]] = module.run
    return runner


@contextlib.contextmanager
def _user_import_path(*folders: Path | None) -> Iterator[None]:
    """Put ``folders`` first on ``sys.path`` (in that order) while the probe runs, and forget
    the modules imported from them afterwards: the next verification must see the user's
    edits."""
    added = [str(f) for f in folders if f is not None]
    before = set(sys.modules)
    sys.path[:0] = added
    # No __pycache__ in the user's folders: verifying must leave their files as they were.
    bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        yield
    finally:
        sys.dont_write_bytecode = bytecode
        for entry in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(entry)
        prefixes = tuple(os.path.join(entry, "") for entry in added)
        for name in set(sys.modules) - before:
            origin = getattr(sys.modules.get(name), "__file__", None) or ""
            if origin.startswith(prefixes) or name.startswith("tflsp_user_"):
                del sys.modules[name]


def home_of(path: str) -> Path | None:
    """The folder of the user's file, if the request names a real one: running the scratch copy
    must import ``from helpers import X`` the way running the file itself would."""
    candidate = Path(path)
    if not candidate.is_absolute():
        return None
    folder = candidate.parent
    return folder if folder.is_dir() else None


def _session(agent: Any, params: dict[str, Any]) -> Session:
    source = params["source"]
    token = params.get("session")
    digest = hashlib.sha1(source.encode("utf-8", "replace")).hexdigest()
    key = (str(token) if token else f"request-{next(_probe_ids)}", params["path"], digest)
    current: Session | None = getattr(agent, "session", None)
    if current is not None and token and current.key == key:
        return current
    if current is not None:
        current.close()
    folder = Path(tempfile.mkdtemp(prefix="tflsp-probe-"))
    name = Path(params["path"]).name
    script = folder / (name if name.endswith(".py") else "code.py")
    script.write_text(source, encoding="utf-8")
    session = Session(key, folder, script, home_of(params["path"]), {str(script): params["path"]})
    agent.session = session
    return session


def run_probe(agent: Any, params: dict[str, Any]) -> dict[str, Any]:
    kind = params.get("kind")
    if kind not in KINDS:
        raise RequestFailed(protocol.INVALID_PARAMS, f"probe kind must be one of {list(KINDS)}")
    for key in ("path", "source", "target"):
        if not isinstance(params.get(key), str):
            raise RequestFailed(protocol.INVALID_PARAMS, f"probe needs a string {key!r}")
    source, target = params["source"], params["target"]
    try:
        options = find_directive(source, target)
        requested: dict[str, Any] = {
            k: params[k]
            for k in ("args", "kwargs", "input_shape", "dtype", "inputs")
            if k in params
        }
        options.update(normalise(requested))
    except DirectiveError as exc:
        raise RequestFailed(protocol.USER_CODE_ERROR, str(exc)) from exc

    import tensorflow as tf

    from tflsp.verify.agent.tfenv import keras_version

    guard = agent.guard
    start = time.perf_counter()
    session = _session(agent, params)
    scratch = session.folder / f"{kind}-{next(_probe_ids)}"
    scratch.mkdir()
    context = ProbeContext(
        agent=agent,
        kind=kind,
        display_path=params["path"],
        source=source,
        target_name=target,
        options=options,
        session=session,
        scratch=scratch,
    )
    guard.before_run()
    for registry, added in session.registrations:
        registry.update(added)
    if session.module is not None:
        sys.modules[session.module.__name__] = session.module
        sys.modules.update(session.siblings)
    result: dict[str, Any]
    cwd = os.getcwd()
    with (
        OutputCapture() as capture,
        fresh_warnings(guard.warning_filters) as shown,
        # The scratch copy first: a stale module of the same name in home must not win.
        _user_import_path(session.folder, session.home),
    ):
        os.chdir(scratch)
        try:
            with user_code(session.script):
                if agent.keras == "2":
                    _refuse_keras3(context)
                result = _runner(kind)(context)
        except ProbeSkipped as exc:
            result = {"outcome": "skip", "reason": str(exc), "observations": {"outcome": "skip"}}
        except TargetBroken as exc:
            # Building it fails whatever the verifier passes: that is a finding, not a refusal.
            context.find(str(exc), exc.line, "error", detail=exc.detail, cause_known=True)
            result = {"outcome": "fail", "observations": {"outcome": "fail", "broken": True}}
        except (ProbeError, PlanError) as exc:
            result = _error(str(exc), None)
        except UserCodeExit as exc:
            result = _error(str(exc), None)
        except MemoryError as exc:
            result = _error("the worker ran out of memory", describe_exception(exc, session.files))
            result["memory_exhausted"] = True
        except BaseException as exc:
            if isinstance(exc, (KeyboardInterrupt, GeneratorExit)):
                raise
            if isinstance(exc, SystemExit) or type(exc).__name__ == "_OsExit":
                # sys.exit()/os._exit() in code the probe called: the worker lives on.
                result = _error(
                    str(exit_message(exc, session.files, f"while the {kind} probe ran it", "")),
                    None,
                )
            else:
                description = describe_exception(exc, session.files)
                result = _error(f"{description['type']}: {description['message']}", description)
        finally:
            os.chdir(cwd)
            with contextlib.suppress(Exception):
                context.restore_module()
    guard.after_run()
    shutil.rmtree(scratch, ignore_errors=True)

    result.setdefault("observations", {})
    result.setdefault("details", {})
    plan = session.plans.get(context.plan_key)
    if plan is not None:
        result["details"].setdefault("plan", plan.describe(target.rsplit(".", 1)[-1]))
    result["findings"] = context.findings + result.get("findings", [])
    result.update(
        {
            "probe": kind,
            "target": target,
            "path": params["path"],
            "options": options,
            "output": {
                "stdout": rename_paths(capture.stdout, session.files)[-4000:],
                "stderr": rename_paths(capture.stderr, session.files)[-4000:],
                "warnings": [
                    {**w, "filename": rename_paths(w["filename"], session.files)} for w in shown
                ],
            },
            "versions": {"tensorflow": tf.__version__, "keras": keras_version()},
            "seconds": round(time.perf_counter() - start, 4),
        }
    )
    if session.import_seconds and "import_seconds" not in result["details"]:
        result["details"]["import_seconds"] = round(session.import_seconds, 4)
    return result


def _refuse_keras3(context: ProbeContext) -> None:
    """Keras 3 code (``import keras``) cannot run on Keras 2: skip rather than mix versions."""
    from tflsp.verify.agent.tfenv import uses_keras3

    target = context.target()
    if uses_keras3(target, context.module):
        raise ProbeSkipped(
            f"{context.target_name} is Keras 3 code (it uses `keras`, not tf.keras or tf_keras); "
            "the Keras 2 run applies to code that can run on Keras 2"
        )


def _error(message: str, exception: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "outcome": "error",
        "error": message,
        "exception": exception,
        "observations": {"outcome": "error"},
    }
