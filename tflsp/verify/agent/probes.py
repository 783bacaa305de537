"""Probe dispatch: import the user's code in a scratch directory, run one probe, report.

Every probe returns the same envelope::

    {"probe": "tracking", "target": "Scale", "kind": "layer", "outcome": "pass" | "fail" | "error",
     "observations": {...numbers and strings that expectations compare...},
     "findings": [{"message": ..., "line": ..., "severity": "error" | "warning" | "info",
                   "patterns": [catalog codes, when the probe knows them]}],
     "details": {...probe-specific lists...}, "exception": {...} | None,
     "output": {"stdout": ..., "stderr": ...}, "options": {...}, "versions": {...}, "seconds": ...}
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import itertools
import os
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
from tflsp.verify.agent.server import RequestFailed
from tflsp.verify.directives import DirectiveError, find_directive, normalise

_module_ids = itertools.count(1)


class ProbeError(Exception):
    """The probe cannot run on this target (wrong kind, missing arguments...)."""


@dataclass
class ProbeContext:
    agent: Any
    kind: str
    display_path: str
    source: str
    target_name: str
    options: dict[str, Any]
    scratch: Path
    script: Path
    files: dict[str, str] = field(default_factory=dict)
    # The user's file's own folder, when it exists: its sibling modules import from there.
    home: Path | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)

    def load_module(self) -> Any:
        """Import a fresh copy of the user's module (its top-level code runs again)."""
        name = f"tflsp_user_{os.getpid()}_{next(_module_ids)}_{self.script.stem}"
        spec = importlib.util.spec_from_file_location(name, self.script)
        if spec is None or spec.loader is None:
            raise ProbeError(f"cannot import {self.display_path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    def target(self, module: Any) -> Any:
        obj = module
        for part in self.target_name.split("."):
            if not hasattr(obj, part):
                raise ProbeError(f"{self.display_path} defines no {self.target_name!r}")
            obj = getattr(obj, part)
        return obj

    def line_of(self, obj: Any) -> int | None:
        with contextlib.suppress(TypeError, OSError):
            return inspect.getsourcelines(obj)[1]
        return None

    def find(
        self,
        message: str,
        line: int | None = None,
        severity: str = "warning",
        patterns: tuple[str, ...] = (),
    ) -> None:
        """``patterns``: catalog codes whose pitfall this observation is the runtime face of
        (the probe knows what it saw; the report adds symptom matches to these)."""
        finding: dict[str, Any] = {"message": message, "line": line, "severity": severity}
        if patterns:
            finding["patterns"] = list(patterns)
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
    the modules imported from them afterwards: the next probe must see the user's edits."""
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
            if origin.startswith(prefixes):
                del sys.modules[name]


def home_of(path: str) -> Path | None:
    """The folder of the user's file, if the request names a real one: running the scratch copy
    must import ``from helpers import X`` the way running the file itself would."""
    candidate = Path(path)
    if not candidate.is_absolute():
        return None
    folder = candidate.parent
    return folder if folder.is_dir() else None


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
    with tempfile.TemporaryDirectory(prefix="tflsp-probe-") as scratch_dir:
        scratch = Path(scratch_dir)
        name = Path(params["path"]).name
        script = scratch / (name if name.endswith(".py") else "code.py")
        script.write_text(source, encoding="utf-8")
        context = ProbeContext(
            agent=agent,
            kind=kind,
            display_path=params["path"],
            source=source,
            target_name=target,
            options=options,
            scratch=scratch,
            script=script,
            files={str(script): params["path"]},
            home=home_of(params["path"]),
        )
        guard.before_run()
        result: dict[str, Any]
        cwd = os.getcwd()
        with (
            OutputCapture() as capture,
            fresh_warnings(guard.warning_filters) as shown,
            # The scratch copy first: a stale module of the same name in home must not win.
            _user_import_path(scratch, context.home),
        ):
            os.chdir(scratch)
            try:
                result = _runner(kind)(context)
            except ProbeError as exc:
                result = _error(str(exc), None)
            except MemoryError as exc:
                result = _error(
                    "the worker ran out of memory", describe_exception(exc, context.files)
                )
                result["memory_exhausted"] = True
            except Exception as exc:
                description = describe_exception(exc, context.files)
                result = _error(f"{description['type']}: {description['message']}", description)
            finally:
                os.chdir(cwd)
                for module_name in [m for m in sys.modules if m.startswith("tflsp_user_")]:
                    del sys.modules[module_name]
        guard.after_run()

    result.setdefault("observations", {})
    result.setdefault("details", {})
    result["findings"] = context.findings + result.get("findings", [])
    result.update(
        {
            "probe": kind,
            "target": target,
            "path": params["path"],
            "options": options,
            "output": {
                "stdout": rename_paths(capture.stdout, context.files)[-4000:],
                "stderr": rename_paths(capture.stderr, context.files)[-4000:],
                "warnings": [
                    {**w, "filename": rename_paths(w["filename"], context.files)} for w in shown
                ],
            },
            "versions": {"tensorflow": tf.__version__, "keras": keras_version()},
            "seconds": round(time.perf_counter() - start, 4),
        }
    )
    return result


def _error(message: str, exception: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "outcome": "error",
        "error": message,
        "exception": exception,
        "observations": {"outcome": "error"},
    }
