"""Run a whole program (a catalog example or a user script) as ``python file.py`` would."""

from __future__ import annotations

import builtins
import contextlib
import os
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tflsp.verify.agent.capture import OutputCapture, fresh_warnings
from tflsp.verify.agent.common import describe_exception, rename_paths
from tflsp.verify.agent.isolation import StateGuard


@contextlib.contextmanager
def as_main(module: types.ModuleType, script: Path) -> Iterator[None]:
    """Make ``module`` the ``__main__`` module, with argv and cwd of ``python script``."""
    previous = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    sys.argv[:] = [str(script)]
    sys.path.insert(0, str(script.parent))
    os.chdir(script.parent)
    try:
        yield
    finally:
        if previous is not None:
            sys.modules["__main__"] = previous


def run_program(params: dict[str, Any], guard: StateGuard) -> dict[str, Any]:
    """Execute ``source`` (or the file at ``path``) in a fresh ``__main__`` namespace.

    Returns what happened: ``outcome`` ("finished" | "raised" | "exited"), ``exception``,
    ``stdout``, ``stderr``, ``warnings`` and ``seconds``.  ``memory_exhausted`` tells the
    caller the worker hit its memory limit and should be recycled.
    """
    shown_path = str(params["path"])
    source = params.get("source")
    if source is None:
        source = Path(shown_path).read_text(encoding="utf-8")
    name = Path(shown_path).name if shown_path.endswith(".py") else "program.py"

    with tempfile.TemporaryDirectory(prefix="tflsp-run-") as scratch:
        script = Path(scratch) / name
        script.write_text(source, encoding="utf-8")
        files = {str(script): shown_path}
        module = types.ModuleType("__main__")
        module.__file__ = str(script)
        module.__builtins__ = builtins  # type: ignore[attr-defined]

        outcome, exception, exit_code = "finished", None, None
        guard.before_run()
        start = time.perf_counter()
        with OutputCapture() as capture, fresh_warnings(guard.warning_filters) as shown:
            try:
                with as_main(module, script):
                    code = compile(source, str(script), "exec", dont_inherit=True)
                    exec(code, module.__dict__)
            except SystemExit as exc:
                exit_code = (
                    exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                )
                outcome = "exited" if exit_code else "finished"
            except BaseException as exc:
                outcome = "raised"
                exception = describe_exception(exc, files)
            finally:
                # Drop the namespace before restoring state so its objects can be collected.
                module.__dict__.clear()
        seconds = time.perf_counter() - start
        guard.after_run()

    for warning in shown:
        warning["filename"] = rename_paths(warning["filename"], files)
    return {
        "outcome": outcome,
        "exception": exception,
        "exit_code": exit_code,
        "stdout": rename_paths(capture.stdout, files),
        "stderr": rename_paths(capture.stderr, files),
        "output_truncated": capture.truncated,
        "warnings": shown,
        "seconds": round(seconds, 4),
        "memory_exhausted": exception is not None and "MemoryError" in exception["mro"],
    }
