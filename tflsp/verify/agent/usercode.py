"""Running the user's code inside the worker without letting it end or confuse the worker.

- ``sys.argv`` is ``[script]`` while user code runs, as for ``python script.py``: a
  module-level ``argparse`` parses nothing of the worker's own command line.
- ``sys.exit()`` (``SystemExit``) and ``os._exit()`` become :class:`UserCodeExit` with the
  status, the user's line and what the code printed to stderr last (argparse's usage error).
- Module state a probe changes (globals, lists they hold, TensorFlow variables reachable from
  them) is checkpointed and put back, so one import serves every probe of a verification.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.common import describe_exception


class UserCodeExit(Exception):
    """User code called ``sys.exit()`` or ``os._exit()``; ``message`` says where and why."""

    def __init__(self, message: str, status: Any, line: int | None) -> None:
        super().__init__(message)
        self.status = status
        self.line = line


class _OsExit(BaseException):
    """Raised in place of ``os._exit(status)``: the process must not end under us."""

    def __init__(self, status: Any) -> None:
        super().__init__(status)
        self.status = status


@contextlib.contextmanager
def user_code(script: Path) -> Iterator[None]:
    """argv of ``python script``; ``os._exit`` raises instead of ending the worker."""
    saved_argv = list(sys.argv)
    real_exit = os._exit

    def _exit(status: int = 0) -> None:
        raise _OsExit(status)

    sys.argv[:] = [str(script)]
    os._exit = _exit  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = real_exit
        sys.argv[:] = saved_argv


def exit_message(exc: BaseException, files: dict[str, str], what: str, stderr: str) -> UserCodeExit:
    """``sys.exit``/``os._exit`` in user code as an error a person can act on."""
    description = describe_exception(exc, files)
    status = (
        getattr(exc, "status", None) if isinstance(exc, _OsExit) else getattr(exc, "code", None)
    )
    call = "os._exit" if isinstance(exc, _OsExit) else "sys.exit"
    where = f" at line {description['line']}" if description.get("line") else ""
    message = f"{call}({status!r}) was called{where} {what}"
    tail = [line for line in stderr.strip().splitlines() if line.strip()][-3:]
    if tail:
        message += ": " + " / ".join(t.strip() for t in tail)
    if any("usage:" in line for line in stderr.splitlines()):
        message += (
            " (a module-level argparse parses the command line when the module is imported; "
            'parse arguments under `if __name__ == "__main__":`)'
        )
    return UserCodeExit(message, status, description.get("line"))


def import_module(name: str, script: Path, files: dict[str, str]) -> tuple[Any, str, str]:
    """Import ``script`` as module ``name``: (module, what it printed to stdout, to stderr).

    Raises :class:`UserCodeExit` when the module exits, or the module's own exception.
    """
    spec = importlib.util.spec_from_file_location(name, script)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {script}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    capture = OutputCapture()
    try:
        with capture, user_code(script):
            spec.loader.exec_module(module)
    except (SystemExit, _OsExit) as exc:
        sys.modules.pop(name, None)
        raise exit_message(exc, files, "while the module was imported", capture.stderr) from None
    except BaseException:
        sys.modules.pop(name, None)
        _replay(capture)
        raise
    _replay(capture)
    return module, capture.stdout, capture.stderr


def _replay(capture: OutputCapture) -> None:
    """Pass what the import printed on to the probe's own capture (it reports output)."""
    with contextlib.suppress(Exception):
        sys.stdout.write(capture.stdout)
        sys.stderr.write(capture.stderr)
        sys.stdout.flush()
        sys.stderr.flush()


# -- state a probe may change, and putting it back ---------------------------------------------
_CONTAINERS = (list, dict, set, bytearray)


class ModuleCheckpoint:
    """Globals of a module, the contents of the lists/dicts/sets they hold, and the values of
    TensorFlow variables reachable from them (models, optimizers, metrics, tf.Modules)."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.names = dict(vars(module))
        self.contents: list[tuple[Any, Any]] = []
        for value in self.names.values():
            if isinstance(value, _CONTAINERS):
                self.contents.append((value, _copy(value)))
        self.variables = [(v, _value(v)) for v in reachable_variables(self.names.values())]
        self.variables = [(v, x) for v, x in self.variables if x is not None]

    def restore(self, created: list[tuple[Any, Any]] = ()) -> None:  # type: ignore[assignment]
        """Put everything back; ``created``: (variable, initial value) made since, reset too."""
        namespace = vars(self.module)
        for name in [n for n in namespace if n not in self.names]:
            del namespace[name]
        namespace.update(self.names)
        for container, saved in self.contents:
            with contextlib.suppress(Exception):
                _put_back(container, saved)
        for variable, value in [*self.variables, *created]:
            with contextlib.suppress(Exception):
                variable.assign(value)


def _copy(value: Any) -> Any:
    return value.copy() if hasattr(value, "copy") else list(value)


def _put_back(container: Any, saved: Any) -> None:
    if isinstance(container, (list, bytearray)):
        container[:] = saved
    else:
        container.clear()
        container.update(saved)


def _value(variable: Any) -> Any:
    try:
        import numpy as np

        return np.array(variable.numpy(), copy=True)
    except Exception:
        return None


def reachable_variables(values: Any, limit: int = 20000) -> list[Any]:
    """``tf.Variable``s held by these objects, directly or through Keras/tf.Module objects."""
    tf = sys.modules.get("tensorflow")
    if tf is None:
        return []
    from tflsp.verify.agent.samples import underlying

    found: dict[int, Any] = {}
    for value in values:
        if isinstance(value, (type, types.ModuleType, types.FunctionType)):
            continue
        candidates: list[Any] = []
        if isinstance(value, tf.Variable):
            candidates = [value]
        else:
            with contextlib.suppress(Exception):
                held = getattr(value, "variables", None)
                if held is not None and not callable(held):
                    candidates = list(held)
        for candidate in candidates:
            variable = underlying(candidate)
            if isinstance(variable, tf.Variable):
                found.setdefault(id(variable), variable)
        if len(found) > limit:
            break
    return list(found.values())
