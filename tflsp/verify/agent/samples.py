"""Outputs and variables of probe targets: flattening, comparing, reading, naming."""

from __future__ import annotations

from typing import Any


def flat_arrays(value: Any) -> list[Any]:
    """Every tensor-like leaf of an output structure as a NumPy array."""
    import numpy as np
    import tensorflow as tf

    leaves = tf.nest.flatten(value, expand_composites=False)
    out = []
    for leaf in leaves:
        if hasattr(leaf, "numpy"):
            out.append(np.asarray(leaf.numpy()))
        elif isinstance(leaf, (int, float, bool, np.ndarray, np.generic)):
            out.append(np.asarray(leaf))
    return out


def float_tensors(value: Any) -> list[Any]:
    import tensorflow as tf

    return [
        t
        for t in tf.nest.flatten(value)
        if isinstance(t, (tf.Tensor, tf.Variable)) and t.dtype.is_floating
    ]


def max_difference(left: list[Any], right: list[Any]) -> float | None:
    """Largest absolute difference between two output lists; None when shapes differ."""
    import numpy as np

    if len(left) != len(right):
        return None
    worst = 0.0
    for a, b in zip(left, right, strict=True):
        if a.shape != b.shape:
            return None
        if a.size == 0:
            continue
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            diff = float(np.nanmax(np.abs(a.astype("float64") - b.astype("float64"))))
            if np.isnan(a).any() != np.isnan(b).any():
                diff = float("inf")
        else:
            diff = 0.0 if np.array_equal(a, b) else float("inf")
        worst = max(worst, diff)
    return worst


def value_of(variable: Any) -> Any:
    """A variable's value as NumPy (``np.array(v)`` warns on NumPy 2.4 + TF 2.21)."""
    import numpy as np

    return np.array(variable.numpy(), copy=True)


def underlying(variable: Any) -> Any:
    """Keras 3 variables wrap a ``tf.Variable`` in ``._value``; Keras 2 weights are tf.Variables."""
    inner = getattr(variable, "_value", None)
    return inner if inner is not None and hasattr(inner, "assign") else variable


def variable_label(variable: Any) -> str:
    for attribute in ("path", "name"):
        value = getattr(variable, attribute, None)
        if isinstance(value, str) and value:
            return value
    return repr(variable)
