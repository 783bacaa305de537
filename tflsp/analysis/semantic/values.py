"""Abstract values: what an expression may hold, from a small lattice.

A name may hold several values at one place (both branches of an ``if``), so an expression
evaluates to a :data:`Values` set.  The empty set means "no value reaches here" (dead code, a
name nothing binds); a set containing :data:`UNKNOWN` means "we cannot tell".  Detectors ask
questions that hold for *every* possible value (:func:`all_of`), so an unknown member makes
them stay silent.

Values are small and hashable: a kind, plus a reference (a qualified library name such as
``keras.layers.Dense``, or ``local:<id>`` for a class or function of this module), the TF/Keras
base kind of classes and instances, a constant (str/int/float/bool values, a function's flavour)
and the local Keras classes an object contains (for the saving flow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

# -- kinds ---------------------------------------------------------------------------------------
MODULE = "module"  # ref: canonical module name ("tensorflow", "keras.layers", "numpy")
NAME = "name"  # a library object known by its qualified name only (ref), kind looked up lazily
CLASS = "class"  # ref: qualname or local:<id>; base: TF/Keras base kind
INSTANCE = "instance"  # ref: the class; base: its TF/Keras base kind; contents
FUNCTION = "function"  # ref: local:<id> or qualname; const: flavour (see FLAVOURS)
TENSOR = "tensor"  # an eager or graph tf.Tensor
KERAS_TENSOR = "keras_tensor"  # a symbolic KerasTensor (functional model building)
VARIABLE = "variable"  # tf.Variable
KERAS_VARIABLE = "keras_variable"  # keras.Variable (Keras 3)
DATASET = "dataset"  # tf.data.Dataset
TAPE = "gradient_tape"
NDARRAY = "ndarray"
INT = "int"
FLOAT = "float"
BOOL = "bool"
NONE = "none"
STR = "str"  # const: the text when known
PATH = "path"  # a pathlib path; const: its text when known
LIST = "list"
TUPLE = "tuple"
DICT = "dict"
SET = "set"
HISTORY = "history"  # what fit() returns
FOREIGN = "foreign"  # another library's object (PIL image, pandas frame); ref: its type name
UNKNOWN_KIND = "unknown"

CONTAINERS = frozenset({LIST, TUPLE, DICT, SET})
SCALARS = frozenset({INT, FLOAT, BOOL})

# Function flavours (``const`` of a FUNCTION value).
PLAIN = "plain"
TF_FUNCTION = "tf.function"  # runs as a graph
PY_FUNCTION = "py_function"  # handed to tf.py_function / numpy_function: runs eagerly

# TF/Keras base kinds of classes and instances.
LAYER = "layer"
MODEL = "model"
METRIC = "metric"
LOSS = "loss"
OPTIMIZER = "optimizer"
CALLBACK = "callback"
TF_MODULE = "module"  # tf.Module
BASE_KINDS = (MODEL, LAYER, METRIC, LOSS, OPTIMIZER, CALLBACK, TF_MODULE)


@dataclass(frozen=True, slots=True)
class Value:
    kind: str
    ref: str = ""
    base: str = ""
    const: object = None
    contents: frozenset[str] = frozenset()  # local Keras class ids held inside (saving flow)

    @property
    def is_local(self) -> bool:
        return self.ref.startswith(LOCAL)

    @property
    def local_id(self) -> str:
        return self.ref[len(LOCAL) :] if self.ref.startswith(LOCAL) else ""

    def __repr__(self) -> str:
        parts = [self.kind]
        if self.ref:
            parts.append(self.ref)
        if self.base:
            parts.append(f"base={self.base}")
        if self.const is not None:
            parts.append(f"const={self.const!r}")
        if self.contents:
            parts.append(f"contents={sorted(self.contents)}")
        return f"<{' '.join(parts)}>"


LOCAL = "local:"
Values = frozenset[Value]

UNKNOWN = Value(UNKNOWN_KIND)
UNKNOWN_SET: Values = frozenset({UNKNOWN})
NOTHING: Values = frozenset()


def one(kind: str, ref: str = "", base: str = "", const: object = None) -> Values:
    return frozenset({Value(kind, ref, base, const)})


def local_ref(identifier: str) -> str:
    return LOCAL + identifier


def is_unknown(values: Values) -> bool:
    return not values or UNKNOWN in values


def all_of(values: Values, test: Callable[[Value], bool]) -> bool:
    """Every possible value passes ``test`` (and at least one value is known)."""
    return bool(values) and UNKNOWN not in values and all(test(v) for v in values)


def any_of(values: Values, test: Callable[[Value], bool]) -> bool:
    return any(test(v) for v in values)


def kinds(values: Values) -> frozenset[str]:
    return frozenset(v.kind for v in values)


def join(parts: Iterable[Values]) -> Values:
    out: set[Value] = set()
    for part in parts:
        out.update(part)
    return frozenset(out)


def constants(values: Values) -> frozenset[object] | None:
    """The constants every value carries, or None when one of them is not a known constant."""
    out: set[object] = set()
    for v in values:
        if v.kind not in (STR, PATH, INT, FLOAT, BOOL, NONE) or (
            v.const is None and v.kind != NONE
        ):
            return None
        out.add(v.const)
    return frozenset(out) if out else None


def contents_of(values: Values) -> frozenset[str]:
    out: set[str] = set()
    for v in values:
        out.update(v.contents)
    return frozenset(out)


def with_contents(values: Values, extra: frozenset[str]) -> Values:
    if not extra:
        return values
    return frozenset(
        Value(v.kind, v.ref, v.base, v.const, v.contents | extra) if v is not UNKNOWN else v
        for v in values
    )


def without_constant(value: Value) -> Value:
    if value.const is None or value.kind not in (STR, PATH, INT, FLOAT, BOOL):
        return value
    return Value(value.kind, value.ref, "", None, value.contents)


def describe(values: Values) -> str:
    """Short text for messages and debugging: ``instance keras.Sequential | unknown``."""
    if not values:
        return "nothing"
    names = sorted(f"{v.kind} {v.ref}".strip() for v in values)
    return " | ".join(names)
