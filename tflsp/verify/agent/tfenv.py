"""Importing TensorFlow in the worker and answering "which Keras is this?"."""

from __future__ import annotations

import os
import platform
import sys
import time
from typing import Any


class TensorFlowUnavailable(RuntimeError):
    """TensorFlow or, for Keras 2, tf-keras cannot be imported here."""


def import_tensorflow(keras: str) -> dict[str, Any]:
    """Import TF (and the requested Keras) and return versions and the import time."""
    start = time.perf_counter()
    try:
        import tensorflow as tf
    except ImportError as exc:
        raise TensorFlowUnavailable(
            f"TensorFlow is not installed for {sys.executable} ({exc}); install tflsp[tf]"
        ) from exc
    try:
        keras_api = tf.keras  # lazily loaded: tf_keras under TF_USE_LEGACY_KERAS=1
        keras_api.layers.Layer  # noqa: B018 - force the import now, not during a probe
    except ImportError as exc:
        raise TensorFlowUnavailable(
            f"Keras {keras} cannot be imported ({exc}); Keras 2 runs need the tf-keras package"
        ) from exc
    elapsed = time.perf_counter() - start
    return {
        "tensorflow": tf.__version__,
        "keras": keras_version(),
        "keras_major": keras,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "pid": os.getpid(),
        "import_seconds": round(elapsed, 3),
    }


def warm_up() -> None:
    """Pay first-use costs now, outside any measured or captured request.

    The first eager op initialises the devices (and logs about missing CUDA); the first layer
    call and the first trace load lazily imported Keras and AutoGraph modules.
    """
    import tensorflow as tf

    tf.config.list_physical_devices()
    x = tf.ones((2, 3))
    layer = keras_api().layers.Dense(2)
    layer(x)
    tf.function(lambda t: layer(t) * 2.0)(x)
    for name in ("keras", "tf_keras"):
        module = sys.modules.get(name)
        if module is not None:
            module.backend.clear_session()


def keras_version() -> str:
    if os.environ.get("TF_USE_LEGACY_KERAS") == "1":
        import tf_keras

        return str(tf_keras.__version__)
    import keras

    return str(keras.__version__)


def keras_api() -> Any:
    """``tf.keras`` as the running Keras version sees it (Keras 3 or tf_keras)."""
    import tensorflow as tf

    return tf.keras


def layer_bases() -> tuple[type, ...]:
    """Layer base classes of every Keras loaded: user code may mix ``keras`` and ``tf.keras``."""
    bases: list[type] = []
    for name in ("keras", "tf_keras"):
        module = sys.modules.get(name)
        layers = getattr(module, "layers", None)
        base = getattr(layers, "Layer", None)
        if isinstance(base, type):
            bases.append(base)
    return tuple(bases)


def model_bases() -> tuple[type, ...]:
    bases: list[type] = []
    for name in ("keras", "tf_keras"):
        base = getattr(sys.modules.get(name), "Model", None)
        if isinstance(base, type):
            bases.append(base)
    return tuple(bases)


def keras_for(obj: Any) -> Any:
    """The Keras package an object belongs to (its optimizers and saving functions)."""
    for klass in type(obj).__mro__:
        if klass.__module__.startswith("tf_keras"):
            return sys.modules["tf_keras"]
        if klass.__module__.startswith("keras"):
            return sys.modules["keras"]
    return keras_api()


def keras_for_class(cls: type) -> Any:
    """The Keras package a class derives from (``tf_keras`` or ``keras``)."""
    for klass in cls.__mro__:
        if klass.__module__.startswith("tf_keras"):
            return sys.modules["tf_keras"]
    import keras

    return keras


def _is_keras3_name(name: str) -> bool:
    return name == "keras" or name.startswith("keras.")


def uses_keras3(target: Any, module: Any) -> bool:
    """Is this Keras 3 code?  A class deriving from Keras 3's Layer, or a module whose names
    come from the ``keras`` package (in a Keras 2 worker, tf.keras is tf_keras)."""
    if isinstance(target, type):
        for klass in target.__mro__:
            owner = klass.__module__ or ""
            if owner.startswith("tf_keras"):
                return False
            if _is_keras3_name(owner):
                return True
    for value in vars(module).values():
        name = getattr(value, "__name__", None) if isinstance(value, type(sys)) else None
        if name is None:
            name = getattr(value, "__module__", None) if isinstance(value, type) else None
        if isinstance(name, str) and _is_keras3_name(name):
            return True
    return False
