"""What names mean: import bindings and canonical qualified names.

Every way of reaching Keras (``keras``, ``tf.keras``, ``tensorflow.keras``, ``tf_keras``) maps
to one canonical ``keras.*`` spelling, so detectors match one name per API.  Which Keras a file
targets is decided elsewhere (:mod:`tflsp.analysis.summary`).
"""

from __future__ import annotations

import ast
import builtins
from functools import lru_cache

BUILTIN_NAMES = frozenset(dir(builtins))

_KERAS_PREFIXES = (
    "tensorflow.keras",
    "tensorflow.python.keras",
    # ``import tensorflow.compat.v1 as tf`` code reaches Keras as ``tf.keras``: the same module.
    "tensorflow.compat.v1.keras",
    "tensorflow.compat.v2.keras",
    "tf_keras",
    "keras.api",
)

# Public aliases of the same object, mapped to one spelling.
_KERAS_ALIASES = {
    "keras.layers.Layer": "keras.Layer",
    "keras.engine.base_layer.Layer": "keras.Layer",
    "keras.models.Model": "keras.Model",
    "keras.engine.training.Model": "keras.Model",
    "keras.models.Sequential": "keras.Sequential",
    "keras.layers.Input": "keras.Input",
    "keras.models.load_model": "keras.saving.load_model",
    "keras.utils.register_keras_serializable": "keras.saving.register_keras_serializable",
    "keras.utils.custom_object_scope": "keras.saving.custom_object_scope",
    "keras.optimizers.legacy.Adam": "keras.optimizers.Adam",
}


# ``tf.compat.v2`` is TensorFlow 2's own API (TF-Hub, TFDS and tensorflow/models import it as
# ``tf``); these ``compat.v1`` names are the very same objects as their TF2 namesakes.
_TF_ALIASES = {
    "tensorflow.compat.v1.function": "tensorflow.function",
    "tensorflow.compat.v1.py_function": "tensorflow.py_function",
    "tensorflow.compat.v1.numpy_function": "tensorflow.numpy_function",
    "tensorflow.compat.v1.print": "tensorflow.print",
    "tensorflow.compat.v1.init_scope": "tensorflow.init_scope",
    "tensorflow.compat.v1.GradientTape": "tensorflow.GradientTape",
}


# Asked for the same few hundred names over and over (every resolved name and chain of every
# block): remembered.  Bounded, since a name being typed makes a new string per keystroke.
@lru_cache(maxsize=8192)
def canonical(qualname: str) -> str:
    for prefix in _KERAS_PREFIXES:
        if qualname == prefix or qualname.startswith(prefix + "."):
            qualname = "keras" + qualname[len(prefix) :]
            break
    else:
        if qualname.startswith("tensorflow.compat.v"):
            if qualname == "tensorflow.compat.v2" or (
                qualname.startswith("tensorflow.compat.v2.")
                and qualname != "tensorflow.compat.v2.enable_v2_behavior"  # only there
            ):
                qualname = "tensorflow" + qualname[len("tensorflow.compat.v2") :]
            else:
                qualname = _TF_ALIASES.get(qualname, qualname)
    return _KERAS_ALIASES.get(qualname, qualname)


def keras_flavor(module: str) -> str | None:
    """Which Keras an import reaches: ``keras3`` (``import keras``), ``tf.keras`` or ``tf_keras``."""
    if module == "tf_keras" or module.startswith("tf_keras."):
        return "tf_keras"
    if module.startswith(("tensorflow.keras", "tensorflow.python.keras")):
        return "tf.keras"
    if module == "keras" or module.startswith("keras."):
        return "keras3"
    return None


def import_bindings(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """``(local name, full dotted target)`` pairs an import statement binds.

    Targets are not canonicalised here so that flavour information survives; call
    :func:`canonical` when resolving.  Relative imports bind nothing we can resolve.
    """
    out: list[tuple[str, str]] = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                out.append((alias.asname, alias.name))
            else:
                head = alias.name.split(".", 1)[0]
                out.append((head, head))
    else:
        if node.level or not node.module:
            return out
        for alias in node.names:
            if alias.name == "*":
                continue
            out.append((alias.asname or alias.name, f"{node.module}.{alias.name}"))
    return out


def dotted(expr: ast.AST) -> str | None:
    """``tf.keras.layers.Dense`` for an attribute chain on a name; None for anything else."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        parts.append(expr.id)
        return ".".join(reversed(parts))
    return None


def super_call(node: ast.AST, method: str) -> ast.Call | None:
    """``node`` is ``super(...).<method>(...)``: that call (None otherwise)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "super"
    ):
        return node
    return None


def call_chain_root(expr: ast.AST) -> ast.AST:
    """Walk down ``a.b(...).c(...).d`` to the innermost receiver ``a``."""
    while True:
        if isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, (ast.Attribute, ast.Subscript)):
            expr = expr.value
        else:
            return expr


def resolve_dotted(name: str, bindings: dict[str, str]) -> str | None:
    """Resolve a dotted string against import bindings; builtins resolve to ``builtins.*``."""
    head, _, rest = name.partition(".")
    target = bindings.get(head)
    if target is None:
        if head in BUILTIN_NAMES:
            return "builtins." + name
        return None
    return canonical(f"{target}.{rest}" if rest else target)
