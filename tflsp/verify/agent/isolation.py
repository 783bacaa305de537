"""Process-wide state one program could leak into the next, and how it is put back.

A warm worker runs many programs, but each must behave as if it ran in a fresh interpreter
(``python bad.py``).  This module snapshots the state right after TensorFlow is imported and
restores it after every run.  What cannot be undone inside one process (graph mode switched
on for good, tf.data debug mode, environment variables read at import time...) is handled by
running the program in a fresh worker instead; see :mod:`tflsp.verify.programs`.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import random
import sys
import warnings
from typing import Any


def _loaded(name: str) -> Any:
    return sys.modules.get(name)


class StateGuard:
    """Take the baseline once (after ``import tensorflow``); call :meth:`reset` around runs."""

    def __init__(self) -> None:
        self.cwd = os.getcwd()
        self.path = list(sys.path)
        self.argv = list(sys.argv)
        self.environ = dict(os.environ)
        self.recursion_limit = sys.getrecursionlimit()
        self.warning_filters = list(warnings.filters)
        root = logging.getLogger()
        self.root_level = root.level
        self.root_handlers = list(root.handlers)
        self.logger_levels = {
            name: logging.getLogger(name).level for name in ("tensorflow", "absl", "keras")
        }
        self.main_module = sys.modules.get("__main__")
        numpy = _loaded("numpy")
        self.numpy_print = numpy.get_printoptions() if numpy is not None else None
        self.absl_verbosity = self._absl_verbosity()
        self.registries = [(d, dict(d)) for d in self._custom_object_registries()]

    # -- the individual pieces -------------------------------------------------------------
    @staticmethod
    def _absl_verbosity() -> int | None:
        absl_logging = _loaded("absl.logging")
        return absl_logging.get_verbosity() if absl_logging is not None else None

    @staticmethod
    def _custom_object_registries() -> list[dict[Any, Any]]:
        """Global dicts filled by ``register_keras_serializable`` in either Keras."""
        found = []
        for module_name, names in (
            (
                "keras.src.saving.object_registration",
                ("GLOBAL_CUSTOM_OBJECTS", "GLOBAL_CUSTOM_NAMES"),
            ),
            (
                "tf_keras.src.saving.object_registration",
                ("_GLOBAL_CUSTOM_OBJECTS", "_GLOBAL_CUSTOM_NAMES"),
            ),
        ):
            module = _loaded(module_name)
            for name in names:
                value = getattr(module, name, None)
                if isinstance(value, dict):
                    found.append(value)
        return found

    @staticmethod
    def clear_keras_sessions() -> None:
        """Fresh layer-name counters (``dense``, not ``dense_7``) and dropped global graphs."""
        for module_name in ("keras", "tf_keras"):
            module = _loaded(module_name)
            if module is not None:
                with contextlib.suppress(Exception):
                    module.backend.clear_session()

    @staticmethod
    def reset_once_only_logs() -> None:
        """TF prints some warnings once per process; a fresh interpreter would print them."""
        for module_name, attribute in (
            ("tensorflow.python.util.deprecation", "_PRINTED_WARNING"),
            ("tensorflow.python.platform.tf_logging", "_log_counter_per_token"),
            ("absl.logging", "_log_counter_per_token"),
        ):
            value = getattr(_loaded(module_name), attribute, None)
            if isinstance(value, dict):
                value.clear()

    @staticmethod
    def reset_tensorflow_switches() -> None:
        tf = _loaded("tensorflow")
        if tf is None:
            return
        with contextlib.suppress(Exception):
            tf.config.run_functions_eagerly(False)
        with contextlib.suppress(Exception):
            tf.random.set_seed(None)
        with contextlib.suppress(Exception):
            tf.debugging.set_log_device_placement(False)
        with contextlib.suppress(Exception):
            tf.config.optimizer.set_jit(False)
        with contextlib.suppress(Exception):
            tf.autograph.set_verbosity(0)
        for module_name in ("keras", "tf_keras"):
            module = _loaded(module_name)
            if module is None:
                continue
            with contextlib.suppress(Exception):
                module.mixed_precision.set_global_policy("float32")
            backend: Any = getattr(module, "backend", None)
            with contextlib.suppress(Exception):
                backend.set_floatx("float32")
                backend.set_epsilon(1e-7)
                backend.set_image_data_format("channels_last")

    @staticmethod
    def reseed_python_and_numpy() -> None:
        random.seed()
        numpy = _loaded("numpy")
        if numpy is not None:
            numpy.random.seed()

    # -- around a run ----------------------------------------------------------------------
    def before_run(self) -> None:
        self.clear_keras_sessions()
        self.reset_once_only_logs()
        self.reset_tensorflow_switches()
        self.reseed_python_and_numpy()

    def after_run(self) -> None:
        with contextlib.suppress(OSError):
            os.chdir(self.cwd)
        sys.path[:] = self.path
        sys.argv[:] = self.argv
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        sys.setrecursionlimit(self.recursion_limit)
        warnings.filters[:] = self.warning_filters  # type: ignore[index]
        root = logging.getLogger()
        root.setLevel(self.root_level)
        root.handlers[:] = self.root_handlers
        for name, level in self.logger_levels.items():
            logging.getLogger(name).setLevel(level)
        absl_logging = _loaded("absl.logging")
        if absl_logging is not None and self.absl_verbosity is not None:
            absl_logging.set_verbosity(self.absl_verbosity)
        numpy = _loaded("numpy")
        if numpy is not None and self.numpy_print is not None:
            numpy.set_printoptions(**self.numpy_print)
        if self.main_module is not None:
            sys.modules["__main__"] = self.main_module
        for registry, saved in self.registries:
            registry.clear()
            registry.update(saved)
        self.reset_tensorflow_switches()
        self.clear_keras_sessions()
        gc.collect()
