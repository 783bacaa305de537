"""Introspect one TensorFlow/Keras installation and print what its public API holds (JSON).

Run by ``scripts/generate_api_data.py`` in a fresh interpreter per flavour:

- ``tensorflow``: TensorFlow 2.21 with its default Keras 3; walks ``tensorflow`` and ``keras``;
- ``tf_keras``: ``TF_USE_LEGACY_KERAS=1`` set before TensorFlow is imported; walks ``tf_keras``
  under the canonical ``keras`` spelling.

Output: ``{"meta": ..., "names": {name: [kind, canonical]}, "objects": {canonical: record}}``
where a record holds bases, signature, return kind and (for classes) own members.  Members are
recorded on the first public class of the MRO that owns them (a member defined by a private
base is recorded on the public class below it), so lookups walk the public bases.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import importlib
import inspect
import io
import json
import math
import os
import pkgutil
import sys
import tempfile
import types
import typing
from typing import Any

FLAVOR = sys.argv[1] if len(sys.argv) > 1 else "tensorflow"
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ.pop("TF_USE_LEGACY_KERAS", None)
if FLAVOR == "tf_keras":
    os.environ["TF_USE_LEGACY_KERAS"] = "1"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

if FLAVOR == "tf_keras":
    import tf_keras as keras
else:
    import keras  # type: ignore[no-redef]

# tf_keras's process walks TensorFlow too (its classes are bases of tf_keras classes, e.g.
# tf.Module) but writes only the ``keras`` names.
ROOTS: list[tuple[str, Any]] = [("tensorflow", tf), ("keras", keras)]
OUTPUT_ROOTS = ("keras",) if FLAVOR == "tf_keras" else ("tensorflow", "keras")


def public_module(module: types.ModuleType) -> bool:
    """API modules only: not ``keras.src``, ``tensorflow.python`` or other packages' modules."""
    name = getattr(module, "__name__", "") or ""
    path = getattr(module, "__file__", "") or ""
    if name.startswith("tensorflow._api.") or "/tensorflow/_api/" in path.replace(os.sep, "/"):
        return True
    prefixes = ("tf_keras",) if FLAVOR == "tf_keras" else ("keras.", "keras._tf_keras")
    return name.startswith(prefixes) and ".src" not in name


def kind_of(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    return "function" if callable(obj) else "other"


# -- walking --------------------------------------------------------------------------------


def walk() -> tuple[dict[str, object], dict[str, str]]:
    """Every public name -> object; module aliases (name -> first name of the same module)."""
    names: dict[str, object] = {}
    module_names: dict[int, list[str]] = collections.defaultdict(list)
    modules: dict[int, types.ModuleType] = {}
    queue: collections.deque[tuple[str, types.ModuleType]] = collections.deque()
    for root, module in ROOTS:
        names[root] = module
        module_names[id(module)].append(root)
        modules[id(module)] = module
        queue.append((root, module))
    # First pass: every name of every API module, breadth first.
    while queue:
        prefix, module = queue.popleft()
        _import_submodules(module)
        for attr in sorted(dir(module)):
            if attr.startswith("_"):
                continue
            try:
                obj = getattr(module, attr)
            except Exception:  # a lazy module that fails to load (tf.compat.v1.layers on Keras 3)
                continue
            full = f"{prefix}.{attr}"
            if isinstance(obj, types.ModuleType):
                if not public_module(obj) or full.count(".") > 8:
                    # An implementation module re-exported as API (tf.compat.v1.flags) is a
                    # name, not a namespace to walk; other packages' modules are neither.
                    if getattr(obj, "__name__", "").startswith("tensorflow.python."):
                        names[full] = obj
                    continue
                first = id(obj) not in modules
                modules[id(obj)] = obj
                module_names[id(obj)].append(full)
                if first:
                    queue.append((full, obj))
            names[full] = obj
    # Members of an aliased module are kept under its canonical name only.
    aliases: dict[str, str] = {}
    canon_module = {mid: pick_module_name(modules[mid], ns) for mid, ns in module_names.items()}
    for mid, ns in module_names.items():
        for n in ns:
            if n != canon_module[mid]:
                aliases[n] = canon_module[mid]
    kept: dict[str, object] = {}
    for name, obj in names.items():
        if name in aliases:
            continue
        kept.setdefault(_unalias(name, aliases), obj)
    return kept, aliases


def _import_submodules(module: types.ModuleType) -> None:
    """Import the public submodules of an API package that are not attributes yet.

    ``from tensorflow.keras import saving`` works on Keras 3 although ``tf.keras`` has no
    ``saving`` attribute until that submodule is imported: the import statement finds it on the
    package's path.  Importing it here records it as the name it is once imported; code that
    reads ``tf.keras.saving`` without importing it is then not reported (unknown, not missing).
    Only for TensorFlow with Keras 3: under ``TF_USE_LEGACY_KERAS`` the same scan turns up
    implementation leftovers in TensorFlow's own API folders (``tf.compat.v1.nn.layers``) and
    changes which spelling of tf-keras's modules is canonical.
    """
    path = getattr(module, "__path__", None)
    if FLAVOR == "tf_keras" or path is None or not public_module(module):
        return
    for info in pkgutil.iter_modules(path):
        if info.name.startswith("_") or hasattr(module, info.name):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(f"{module.__name__}.{info.name}")


def _unalias(name: str, aliases: dict[str, str]) -> str:
    """``name`` spelled through canonical module names (the walk may have met an alias first)."""
    for _ in range(8):
        parts = name.split(".")
        prefix = next(
            (
                ".".join(parts[:i])
                for i in range(len(parts) - 1, 0, -1)
                if ".".join(parts[:i]) in aliases
            ),
            None,
        )
        if prefix is None:
            return name
        name = aliases[prefix] + name[len(prefix) :]
    return name


def _api_spelling(module_name: str) -> str:
    for old, new in (
        ("tensorflow._api.v2.", "tensorflow."),
        ("keras._tf_keras.keras", "tensorflow.keras"),
        ("tf_keras", "keras"),
    ):
        if module_name.startswith(old):
            return new + module_name[len(old) :]
    return module_name


def pick_module_name(module: types.ModuleType, names: list[str]) -> str:
    spelled = _api_spelling(module.__name__)
    if spelled in names:
        return spelled
    return min(names, key=_preference)


def _preference(name: str) -> tuple[int, int, int, str]:
    compat = ".compat." in name
    return (int(compat), name.count("."), len(name), name)


def _own(obj: object, attr: str) -> Any:
    """An attribute the object itself carries (a subclass must not inherit its base's names)."""
    try:
        return vars(obj).get(attr)
    except TypeError:
        return getattr(obj, attr, None)


def export_names(obj: object) -> list[str]:
    """The library's own public spellings of ``obj``, canonical first."""
    out: list[str] = []
    target = obj
    with contextlib.suppress(Exception):
        from tensorflow.python.util import tf_decorator

        target = tf_decorator.unwrap(obj)[1]
    for holder in (obj, target):
        v2 = _own(holder, "_tf_api_names")
        v1 = _own(holder, "_tf_api_names_v1")
        out += [f"tensorflow.{n}" for n in v2 or ()]
        out += [f"tensorflow.compat.v1.{n}" for n in v1 or ()]
        path = _own(holder, "_api_export_path")
        if isinstance(path, str):
            path = [path]
        out += list(path or ())
        out += list(_own(holder, "_keras_api_names") or ())
        out += list(_own(holder, "_keras_api_names_v1") or ())
    return out


def _groupable(obj: object) -> bool:
    """Objects whose identity means something (not ``None`` or the number 0)."""
    return not isinstance(obj, (type(None), bool, int, float, str, bytes, tuple, frozenset))


def canonical_names(names: dict[str, object]) -> dict[str, str]:
    groups: dict[int, list[str]] = collections.defaultdict(list)
    for name, obj in names.items():
        if _groupable(obj) and not isinstance(obj, types.ModuleType):
            groups[id(obj)].append(name)
    out: dict[str, str] = {}
    for members in groups.values():
        obj = names[members[0]]
        choice = next((n for n in export_names(obj) if n in names), None)
        if choice is None:
            choice = min(members, key=_preference)
        for n in members:
            out[n] = choice
    return out


# -- signatures -----------------------------------------------------------------------------


def literal(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if value is None or isinstance(value, (bool, int, str)):
        return not isinstance(value, enum.Enum)
    if type(value) in (tuple, list):
        return all(literal(v) for v in value)  # type: ignore[attr-defined]
    return False


def signature_text(obj: Any, drop_first: bool = False) -> str | None:
    """``(a, b=1, *args, c=..., **kw)`` as the caller sees it; non-literal defaults are ``...``."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if (
        drop_first
        and params
        and params[0].kind
        in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
    ):
        params = params[1:]
    parts: list[str] = []
    saw_star = False
    for i, p in enumerate(params):
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not saw_star:
            parts.append("*")
            saw_star = True
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            saw_star = True
            text = f"*{p.name}"
        elif p.kind is inspect.Parameter.VAR_KEYWORD:
            text = f"**{p.name}"
        else:
            text = p.name
            if p.default is not inspect.Parameter.empty:
                text += "=" + (repr(p.default) if literal(p.default) else "...")
        parts.append(text)
        nxt = params[i + 1] if i + 1 < len(params) else None
        if p.kind is inspect.Parameter.POSITIONAL_ONLY and (
            nxt is None or nxt.kind is not inspect.Parameter.POSITIONAL_ONLY
        ):
            parts.append("/")
    return "(" + ", ".join(parts) + ")"


# -- return kinds ---------------------------------------------------------------------------

_TENSOR = tf.Tensor
_VARIABLE = tf.Variable
_DATASET = tf.data.Dataset
# tf.function objects (polymorphic and concrete) answer to these base classes.
_FUNCTIONS = tuple(
    getattr(tf.types.experimental, name)
    for name in ("GenericFunction", "PolymorphicFunction", "ConcreteFunction")
    if hasattr(tf.types.experimental, name)
)
_KERAS_VARIABLE = getattr(keras, "Variable", None) if FLAVOR != "tf_keras" else None
_KERAS_TENSOR: Any = getattr(keras, "KerasTensor", None)
if _KERAS_TENSOR is None:
    with contextlib.suppress(ImportError):
        from tf_keras.src.engine.keras_tensor import KerasTensor as _KERAS_TENSOR
_HISTORY = keras.callbacks.History

_SCALARS = {type(None): "none", bool: "bool", int: "int", float: "float", str: "str"}


def kind_of_type(cls: Any, canon: dict[int, str]) -> str | None:
    """The vocabulary word for instances of ``cls`` (None when nothing is known)."""
    if not inspect.isclass(cls):
        return None
    if cls in _SCALARS:
        return _SCALARS[cls]
    checks: list[tuple[Any, str]] = [
        (_KERAS_VARIABLE, "keras_variable"),
        (_KERAS_TENSOR, "keras_tensor"),
        (_VARIABLE, "variable"),
        (_TENSOR, "tensor"),
        (_DATASET, "dataset"),
        (tf.GradientTape, "gradient_tape"),
        (np.ndarray, "ndarray"),
        (_FUNCTIONS, "function"),
        (_HISTORY, "history"),
        (types.ModuleType, "module"),
    ]
    for base, word in checks:
        if base is not None and issubclass(cls, base):
            return word
    name = canon.get(id(cls))
    return f"instance:{name}" if name else None


def annotation_kind(fn: Any, canon: dict[int, str]) -> str | None:
    """What the source's own return annotation says, when it names one type."""
    try:
        ann = inspect.signature(fn).return_annotation
    except (TypeError, ValueError):
        return None
    if ann is inspect.Signature.empty:
        return None
    if isinstance(ann, str):
        try:
            scope = getattr(inspect.unwrap(fn), "__globals__", {})
            ann = eval(ann, dict(scope))
        except Exception:
            return None
    if ann is None:
        return "none"
    if typing.get_origin(ann) is not None:
        return None  # Union, Optional, list[...]: several kinds or a container
    return kind_of_type(ann, canon)


# Calls whose result type never depends on the arguments, observed by running them.
_MODEL = (
    "m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])\n"
    "m.compile(optimizer='sgd', loss='mse')\n"
    "x, y = np.zeros((4, 2), 'float32'), np.zeros((4, 1), 'float32')\n"
)
PROBES: dict[str, str] = {
    "keras.Input": "result = keras.Input((2,))",
    "keras.Model.fit": _MODEL + "result = m.fit(x, y, verbose=0)",
    "keras.Model.compile": _MODEL + "result = m.compile(optimizer='sgd', loss='mse')",
    "keras.Model.summary": _MODEL + "result = m.summary(print_fn=lambda *a, **k: None)",
    "keras.Model.save_weights": _MODEL + "result = m.save_weights(TMP + '/w.weights.h5')",
    "keras.Model.to_json": _MODEL + "result = m.to_json()",
    "keras.Model.count_params": _MODEL + "result = m.count_params()",
    "keras.layers.Layer.add_weight": (
        "layer = keras.layers.Layer()\nresult = layer.add_weight(shape=(2,), name='w')"
    ),
}
if FLAVOR != "tf_keras":
    PROBES["tensorflow.function"] = "result = tf.function(lambda t: t)"
    PROBES["keras.Model.save"] = _MODEL + "result = m.save(TMP + '/m.keras')"


def run_probes(canon: dict[int, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in PROBES.items():
            scope: dict[str, Any] = {"tf": tf, "keras": keras, "np": np, "TMP": tmp}
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, scope)
            kind = kind_of_type(type(scope["result"]), canon)
            if kind is not None:
                out[name] = kind
    return out


# -- records --------------------------------------------------------------------------------


def member_record(owner: type, attr: str, canon: dict[int, str]) -> list[Any]:
    raw = inspect.getattr_static(owner, attr)
    if isinstance(raw, staticmethod):
        fn = raw.__func__
        return ["function", signature_text(fn), annotation_kind(fn, canon)]
    if isinstance(raw, classmethod):
        fn = raw.__func__
        return ["function", signature_text(fn, drop_first=True), annotation_kind(fn, canon)]
    if inspect.isclass(raw):
        return ["class", None, None]
    if inspect.isfunction(raw) or (inspect.ismethoddescriptor(raw) and callable(raw)):
        return ["function", signature_text(raw, drop_first=True), annotation_kind(raw, canon)]
    if callable(raw) and not isinstance(raw, (property, types.GetSetDescriptorType)):
        return ["function", signature_text(raw, drop_first=False), None]
    return ["other", None, None]


def class_record(cls: type, canon: dict[int, str]) -> dict[str, Any]:
    bases: list[str] = []
    for base in cls.__mro__[1:]:
        if base is object:
            continue
        if id(base) in canon:
            bases.append(canon[id(base)])
        elif base.__module__ == "builtins":
            bases.append(f"builtins.{base.__name__}")
    members: dict[str, list[Any]] = {}
    for attr in sorted(dir(cls)):
        if attr.startswith("_"):
            continue
        owner = next((k for k in cls.__mro__ if attr in vars(k)), None)
        if owner is None or owner is object:
            continue
        # Recorded on the public class nearest above the owner in the MRO (the owner itself
        # when public): a method of a private base appears once, not on every subclass.
        mro = cls.__mro__
        recorder = next(
            k for k in reversed(mro[: mro.index(owner) + 1]) if k is cls or id(k) in canon
        )
        if recorder is not cls:
            continue
        try:
            members[attr] = member_record(owner, attr, canon)
        except Exception:
            members[attr] = ["other", None, None]
    record: dict[str, Any] = {"kind": "class", "bases": bases, "members": members}
    sig = signature_text(cls)
    if sig == _OPAQUE:
        # A metaclass __call__ or a __new__(cls, *args, **kwargs) hides what __init__ takes.
        init = next((vars(k)["__init__"] for k in cls.__mro__ if "__init__" in vars(k)), None)
        if init is not None and init is not object.__init__:
            sig = signature_text(init, drop_first=True) or sig
    if sig is not None:
        record["signature"] = sig
    returns = kind_of_type(cls, canon)
    if returns is not None:
        record["returns"] = returns
    return record


_OPAQUE = "(*args, **kwargs)"


def function_record(fn: Any, canon: dict[int, str]) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": "function"}
    sig = signature_text(fn)
    if sig is not None:
        record["signature"] = sig
    returns = annotation_kind(fn, canon)
    if returns is not None:
        record["returns"] = returns
        record["returns_from"] = "annotation"
    return record


def main() -> None:
    names, aliases = walk()
    canonical = canonical_names(names)
    canon_by_id: dict[int, str] = {}
    for name, obj in names.items():
        if name in canonical and inspect.isclass(obj):
            canon_by_id[id(obj)] = canonical[name]
    out_names: dict[str, list[str]] = {}
    objects: dict[str, dict[str, Any]] = {}
    other_names: dict[str, list[str]] = {}
    for name, obj in sorted(names.items()):
        if name.split(".", 1)[0] not in OUTPUT_ROOTS:
            other_names[name] = [kind_of(obj), aliases.get(name) or canonical.get(name, name)]
            continue
        kind = kind_of(obj)
        canon = aliases.get(name) or canonical.get(name, name)
        out_names[name] = [kind, canon]
        if canon != name or canon in objects:
            continue
        if kind == "class":
            objects[name] = class_record(obj, canon_by_id)  # type: ignore[arg-type]
        elif kind == "function":
            objects[name] = function_record(obj, canon_by_id)
    for alias, target in aliases.items():
        if alias.split(".", 1)[0] in OUTPUT_ROOTS and target.split(".", 1)[0] in OUTPUT_ROOTS:
            out_names[alias] = ["module", target]
        else:
            other_names[alias] = ["module", target]
    for name, kind in run_probes(canon_by_id).items():
        apply_probe(name, kind, out_names, objects)
    meta = {
        "flavor": FLAVOR,
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "python": ".".join(map(str, sys.version_info[:2])),
    }
    if FLAVOR == "tf_keras":
        # What TF_USE_LEGACY_KERAS=1 really changes: tf.keras becomes tf_keras itself.
        meta["tf.keras is tf_keras"] = tf.keras.layers.Dense is keras.layers.Dense
    result = {"meta": meta, "names": out_names, "objects": objects}
    if FLAVOR == "tf_keras":
        # tensorflow.* as TF_USE_LEGACY_KERAS=1 resolves it (tf.compat.v1.layers works again).
        result["tensorflow_names"] = other_names
    json.dump(result, sys.stdout, sort_keys=True)


def apply_probe(
    name: str, kind: str, names: dict[str, list[str]], objects: dict[str, dict[str, Any]]
) -> None:
    """Record a probe's result on the function, or on the method found along the MRO."""
    if name in names:
        objects[names[name][1]]["returns"] = kind
        objects[names[name][1]]["returns_from"] = "probe"
        return
    owner, _, member = name.rpartition(".")
    cls = names[owner][1]
    for klass in [cls, *objects[cls]["bases"]]:
        rec = objects.get(klass, {}).get("members", {}).get(member)
        if rec is not None:
            rec[2] = kind
            return
    raise LookupError(f"probe {name}: no such method")


def mentions() -> None:
    """Which removed Keras 2 parameters Keras 3's source still names as a string.

    Input (stdin): ``{keras3 name: [parameter, ...]}``; a class is read through the
    ``__init__`` methods of its Keras bases, where old keywords are popped from ``kwargs``.
    Also, for the classes listed under ``kwargs``: the keywords their constructors read from
    ``**kwargs`` by name (``kwargs.pop("x")``, ``"x" in kwargs``), which a call may pass although
    no signature names them.
    """
    import re

    request: dict[str, Any] = json.load(sys.stdin)
    wanted: dict[str, list[str]] = request["params"]
    out: dict[str, Any] = {"params": {}, "assigned": {}, "kwargs": {}}
    read = re.compile(
        r"kwargs(?:\.(?:pop|get)\(\s*|\[\s*)[\"'](\w+)[\"']"
        r"|[\"'](\w+)[\"']\s+(?:not\s+)?in\s+kwargs\b"
    )
    for name in sorted(request.get("kwargs", [])):
        klass: Any = keras
        try:
            for part in name.split(".")[1:]:
                klass = getattr(klass, part)
        except AttributeError:
            continue
        if not inspect.isclass(klass):
            continue
        source = ""
        for k in klass.__mro__:
            init = vars(k).get("__init__")
            if init is not None and getattr(init, "__module__", "").startswith("keras"):
                with contextlib.suppress(OSError, TypeError):
                    source += inspect.getsource(init)
        found = sorted({a or b for a, b in read.findall(source)})
        if found:
            out["kwargs"][name] = found
    # Attributes a Keras 3 class sets on its instances (``self.name = ...``) are not in dir().
    for name, attrs in sorted(request["attributes"].items()):
        cls: Any = keras
        try:
            for part in name.split(".")[1:]:
                cls = getattr(cls, part)
        except AttributeError:
            continue
        text = ""
        for klass in cls.__mro__:
            if getattr(klass, "__module__", "").startswith("keras"):
                with contextlib.suppress(OSError, TypeError):
                    text += inspect.getsource(klass)
        hits = [a for a in attrs if re.search(rf"self\.{re.escape(a)}\s*=", text)]
        if hits:
            out["assigned"][name] = hits
    for name, params in sorted(wanted.items()):
        obj: Any = keras
        try:
            for part in name.split(".")[1:]:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        chunks: list[Any] = []
        if inspect.isclass(obj):
            chunks = [vars(k)["__init__"] for k in obj.__mro__ if "__init__" in vars(k)]
            chunks = [c for c in chunks if getattr(c, "__module__", "").startswith("keras")]
        else:
            chunks = [obj]
        text = ""
        for chunk in chunks:
            with contextlib.suppress(OSError, TypeError):
                text += inspect.getsource(chunk)
        found = [p for p in params if re.search(rf"[\"']{re.escape(p)}[\"']", text)]
        if found:
            out["params"][name] = found
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "mentions":
        mentions()
    else:
        main()
