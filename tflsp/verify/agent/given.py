"""Inputs and arguments the user gave (``--inputs``, ``--input-shape``, ``--dtype``, ``--args``,
the directive), and a ``tf.function``'s own ``input_signature``, as argument descriptions."""

from __future__ import annotations

import inspect
import re
from typing import Any

from tflsp.verify.agent.specs import BATCH, SEQUENCE, SIZE, Arguments, Mapping, TensorSpec, Value


def _given_value(value: Any, dtype: str | None = None) -> Any:
    """A value from ``--inputs`` or the directive's ``inputs=``."""
    if isinstance(value, dict):
        if "shape" in value:
            return TensorSpec(
                tuple(int(n) for n in value["shape"]),
                str(value.get("dtype") or dtype or "float32"),
                int(value["max"]) if value.get("max") is not None else None,
            )
        if "python" in value:
            return Value(value["python"])
        if "values" in value:
            return _literal_tensor(value["values"], value.get("dtype") or dtype)
        return Mapping(tuple((str(k), _given_value(v, dtype)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return _literal_tensor(value, dtype)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _literal_tensor(value, dtype)
    return Value(value)


class LiteralTensor(Value):
    """Values the user gave: the same tensor every time (batch sizes cannot be varied)."""

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        import tensorflow as tf

        data, dtype = self.value
        return tf.constant(data, dtype=dtype)

    def describe(self) -> str:
        import numpy as np

        data, dtype = self.value
        return f"{dtype}{list(np.shape(data))} (given values)"


def _literal_tensor(data: Any, dtype: str | None) -> Any:
    import numpy as np

    array = np.asarray(data)
    chosen = dtype or (
        "int32" if array.dtype.kind in "iu" else "bool" if array.dtype.kind == "b" else "float32"
    )
    return LiteralTensor((array.tolist(), chosen))


def given_call(options: dict[str, Any], params: list[inspect.Parameter]) -> Arguments | None:
    if "inputs" in options:
        inputs = options["inputs"]
        dtype = options.get("dtype") if isinstance(options.get("dtype"), str) else None
        if isinstance(inputs, dict) and set(inputs) == {"npz"}:
            return _npz_call(str(inputs["npz"]))
        if isinstance(inputs, dict):
            return Arguments(
                kwargs=tuple((str(k), _given_value(v, dtype)) for k, v in inputs.items()),
                origin="given",
            )
        return Arguments(args=tuple(_given_value(v, dtype) for v in inputs), origin="given")
    if "input_shape" in options:
        shapes = options["input_shape"]
        if shapes and not isinstance(shapes[0], (list, tuple)):
            shapes = [shapes]
        dtypes = options.get("dtype", "float32")
        if isinstance(dtypes, str):
            dtypes = [dtypes] * len(shapes)
        specs = []
        for shape, dtype in zip(shapes, dtypes, strict=False):
            specs.append(
                TensorSpec(tuple(int(n) for n in shape), dtype, SIZE if "int" in dtype else None)
            )
        return Arguments(args=tuple(specs), origin="given")
    return None


def _npz_call(path: str) -> Arguments:
    """Arrays ``arg0``, ``arg1``... are positional arguments; other names are keywords."""
    import numpy as np

    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    positional = sorted((n for n in arrays if re.fullmatch(r"arg\d+", n)), key=lambda n: int(n[3:]))
    return Arguments(
        args=tuple(LiteralTensor((arrays[n].tolist(), str(arrays[n].dtype))) for n in positional),
        kwargs=tuple(
            (n, LiteralTensor((a.tolist(), str(a.dtype))))
            for n, a in arrays.items()
            if n not in positional
        ),
        origin="given",
    )


def given_construct(options: dict[str, Any]) -> Arguments | None:
    if "args" in options or "kwargs" in options:
        return Arguments(
            args=tuple(Value(v) for v in options.get("args", [])),
            kwargs=tuple((k, Value(v)) for k, v in options.get("kwargs", {}).items()),
            origin="given",
        )
    return None


# -- constructor arguments -------------------------------------------------------------------------
def signature_call(method: Any) -> Arguments | None:
    """A ``tf.function(input_signature=...)``-decorated call: its signature says it all."""
    signature = getattr(method, "input_signature", None)
    if not signature:
        return None
    specs = []
    for spec in signature:
        shape = getattr(spec, "shape", None)
        dims = [] if shape is None or shape.rank is None else list(shape)
        concrete = tuple(
            (BATCH if i == 0 else SEQUENCE) if d is None else int(d) for i, d in enumerate(dims)
        )
        dtype = getattr(getattr(spec, "dtype", None), "name", "float32")
        specs.append(
            TensorSpec(concrete, dtype, SIZE if "int" in dtype else None, batched=bool(dims))
        )
    return Arguments(args=tuple(specs), origin="its input_signature")
