"""Descriptions of constructor arguments and call inputs, made concrete on demand.

A probe builds its target many times (a fresh instance per mode and input set), so arguments
are kept as descriptions: a :class:`TensorSpec` makes a new deterministic tensor each time, a
:class:`LayerSpec` a new Keras layer.  Each description says where it came from, so a report
can tell the user what the verifier chose and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

BATCH = 2
SIZE = 4  # feature sizes, units, filters...: one number, so guessed sizes fit each other
SEQUENCE = 5
IMAGE = 8


@dataclass(frozen=True)
class TensorSpec:
    shape: tuple[int, ...]
    dtype: str = "float32"
    maxval: int | None = None  # integers are drawn from [0, maxval)
    batched: bool = True  # the first axis is the batch (the "shapes" input set varies it)
    ones: bool = False  # all ones / True (masks)

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        import tensorflow as tf

        shape = self.shape
        if batch is not None and self.batched and shape:
            shape = (batch, *shape[1:])
        if self.ones:
            return tf.ones(shape, dtype=self.dtype)
        if self.dtype == "bool":
            return tf.random.stateless_uniform(shape, seed=(7, 11 + seed)) > 0.3
        if self.dtype.startswith(("int", "uint")):
            top = self.maxval if self.maxval is not None else 8
            return tf.cast(
                tf.random.stateless_uniform(
                    shape, seed=(7, 11 + seed), minval=0, maxval=max(1, top), dtype=tf.int32
                ),
                self.dtype,
            )
        return tf.cast(tf.random.stateless_uniform(shape, seed=(7, 11 + seed)), self.dtype)

    def describe(self) -> str:
        text = f"{self.dtype}[{', '.join(str(n) for n in self.shape)}]"
        if self.ones:
            text += " of ones"
        return text


@dataclass(frozen=True)
class Value:
    """A Python value passed as it is (a unit count, an activation name, None...)."""

    value: Any

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        return self.value

    def describe(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class Sequence:
    items: tuple[Any, ...]
    kind: str = "list"

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        made = [item.make(seed + i, batch) for i, item in enumerate(self.items)]
        return tuple(made) if self.kind == "tuple" else made

    def describe(self) -> str:
        inner = ", ".join(item.describe() for item in self.items)
        return f"({inner})" if self.kind == "tuple" else f"[{inner}]"


@dataclass(frozen=True)
class Mapping:
    items: tuple[tuple[str, Any], ...]

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        return {k: v.make(seed + i, batch) for i, (k, v) in enumerate(self.items)}

    def describe(self) -> str:
        return "{" + ", ".join(f"{k!r}: {v.describe()}" for k, v in self.items) + "}"


@dataclass(frozen=True)
class LayerSpec:
    """A small Keras layer built fresh each time (for arguments such as ``model``/``layer``;
    ``cell``: an RNN cell)."""

    units: int = SIZE
    kind: str = "Dense"

    def make(self, seed: int = 0, batch: int | None = None, keras: Any = None) -> Any:
        if keras is None:
            import tensorflow as tf

            keras = tf.keras
        return getattr(keras.layers, self.kind)(self.units)

    def describe(self) -> str:
        return f"{self.kind}({self.units})"


@dataclass(frozen=True)
class Identity:
    """A function argument (``fn``, ``activation`` used as a callable)."""

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        return _identity

    def describe(self) -> str:
        return "lambda x: x"


def _identity(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x


Spec = Any  # TensorSpec | Value | Sequence | Mapping | LayerSpec | Identity


@dataclass(frozen=True)
class Arguments:
    """Positional and keyword arguments, with where each guess came from."""

    args: tuple[Spec, ...] = ()
    kwargs: tuple[tuple[str, Spec], ...] = ()
    origin: str = ""  # "given", "the file's own call", "guessed"...
    reasons: tuple[str, ...] = ()  # "units=4 (from its name)", ...

    def make(
        self,
        seed: int = 0,
        batch: int | None = None,
        keras: Any = None,
        memo: dict[int, Any] | None = None,
    ) -> tuple[list[Any], dict[str, Any]]:
        """Concrete arguments.  ``memo``: layers made for earlier calls, reused (a new layer
        object on every call of a tf.function is a new set of variables each time)."""

        def one(spec: Spec, offset: int) -> Any:
            if isinstance(spec, LayerSpec):
                if memo is None:
                    return spec.make(keras=keras)
                if offset not in memo:
                    memo[offset] = spec.make(keras=keras)
                return memo[offset]
            return spec.make(seed + offset, batch)

        args = [one(a, i) for i, a in enumerate(self.args)]
        kwargs = {k: one(v, len(args) + i) for i, (k, v) in enumerate(self.kwargs)}
        return args, kwargs

    def describe(self, name: str = "") -> str:
        parts = [a.describe() for a in self.args]
        parts += [f"{k}={v.describe()}" for k, v in self.kwargs]
        return f"{name}({', '.join(parts)})"

    def with_kwarg(self, key: str, spec: Spec) -> Arguments:
        kept = tuple((k, v) for k, v in self.kwargs if k != key)
        return replace(self, kwargs=(*kept, (key, spec)))

    def tensors(self) -> list[TensorSpec]:
        found: list[TensorSpec] = []

        def walk(spec: Spec) -> None:
            if isinstance(spec, TensorSpec):
                found.append(spec)
            elif isinstance(spec, Sequence):
                for item in spec.items:
                    walk(item)
            elif isinstance(spec, Mapping):
                for _, item in spec.items:
                    walk(item)

        for spec in [*self.args, *(v for _, v in self.kwargs)]:
            walk(spec)
        return found

    @property
    def batched(self) -> bool:
        """Does any input have a batch axis the ``shapes`` set can vary?"""
        return any(t.batched and t.shape for t in self.tensors())


@dataclass
class Plan:
    """How to build a target and call it: what every probe of one verification shares."""

    kind: str  # "layer" | "model" | "functional" | "module" | "function" | "no_call"
    construct: Arguments | None = None
    call: Arguments | None = None
    notes: list[str] = field(default_factory=list)
    training: bool = False  # the call accepts ``training=``
    adapt: bool = False  # call ``adapt()`` on the inputs before use (preprocessing models)
    functional_inputs: tuple[TensorSpec, ...] = ()  # for ``Cls(inputs, outputs)`` subclasses

    def describe(self, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.construct is not None:
            out["construct"] = self.construct.describe(name)
            out["construct_from"] = self.construct.origin
        if self.call is not None:
            out["call"] = self.call.describe("")
            out["call_from"] = self.call.origin
        if self.notes:
            out["notes"] = list(self.notes)
        return out
