"""What TensorFlow 2.21, Keras 3.15 and tf-keras 2.21 hold, generated from the libraries.

``scripts/generate_api_data.py`` introspects the installed libraries and writes the JSON files
under ``data/``; this module reads them lazily and never imports TensorFlow.  Three flavours:

- ``"tensorflow"``: ``tensorflow.*`` as TF 2.21 resolves it with its default Keras 3
  (``tensorflow.keras.layers.Dense`` is Keras 3's ``keras.layers.Dense``);
- ``"keras3"``: ``keras.*`` in Keras 3.15;
- ``"tf_keras"``: ``keras.*`` in tf-keras 2.21 (``tf_keras.*`` and ``tensorflow.keras.*``
  spellings are read as ``keras.*``: TF_USE_LEGACY_KERAS=1 makes ``tf.keras`` tf-keras).

Names are full dotted paths: ``tensorflow.data.Dataset.from_tensor_slices``,
``keras.layers.Dense``, ``keras.Model.fit`` (a class member: one attribute below a class).
A query outside a flavour's namespace answers ``None`` ("not covered"), never ``False``.

Return kinds use one vocabulary: ``tensor``, ``variable`` (tf.Variable), ``keras_variable``,
``keras_tensor`` (symbolic), ``dataset``, ``gradient_tape``, ``ndarray``, ``function``,
``history``, ``none``, ``bool``, ``int``, ``float``, ``str``, ``module`` and
``instance:<canonical class name>``; a kind that is not certain is absent (``None``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

from tflsp.analysis.apidata.signatures import Parameter, Signature, parse_signature

__all__ = [
    "FLAVORS",
    "Keras3ParamChanges",
    "Keras3Removed",
    "Parameter",
    "Signature",
    "TF1Removed",
    "bases",
    "canonical",
    "exists",
    "is_subclass",
    "keras3_changed_callables",
    "keras3_constructor_kwargs",
    "keras3_homes",
    "keras3_param_changes",
    "keras3_removed",
    "keras3_removed_members",
    "kind",
    "members",
    "method_returns",
    "returns",
    "signature",
    "tf1_keyword_renames",
    "tf1_removed",
    "tf1_renames",
    "tf1_reorders",
    "versions",
]

Flavor = Literal["tensorflow", "keras3", "tf_keras"]
FLAVORS: tuple[str, ...] = ("tensorflow", "keras3", "tf_keras")
Kind = Literal["module", "class", "function", "other"]

# Which data set answers for a flavour: TensorFlow and Keras 3 were introspected in one
# process (they share objects), tf-keras in another.
_UNIVERSE = {"tensorflow": "tensorflow", "keras3": "tensorflow", "tf_keras": "tf_keras"}
# Per data set: name prefix -> file stem.  The longest matching prefix owns a name.
SHARDS: dict[str, dict[str, str]] = {
    "tensorflow": {
        "tensorflow": "tensorflow",
        "tensorflow.compat.v1": "tensorflow.compat.v1",
        "tensorflow.compat.v2": "tensorflow.compat.v2",
        "tensorflow.raw_ops": "tensorflow.raw_ops",
        "keras": "keras3",
    },
    "tf_keras": {"keras": "tf_keras"},
}
_KINDS: dict[str, Kind] = {"m": "module", "c": "class", "f": "function", "o": "other"}


def shard_for(name: str, universe: str) -> str:
    """The shard prefix that owns ``name`` in a data set."""
    best = ""
    for prefix in SHARDS[universe]:
        if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    return best


# Read as a plain file, as the catalog is: importlib.resources (and the zipfile module it
# imports) cost more to import than the largest of these files costs to decode.
_DATA = Path(__file__).resolve().parent / "data"


@cache
def _load(stem: str) -> Any:
    return json.loads((_DATA / f"{stem}.json").read_bytes())


def _names(universe: str, name: str) -> dict[str, str]:
    shard = shard_for(name, universe)
    return _load(SHARDS[universe][shard])["names"] if shard else {}


def _object(universe: str, name: str) -> dict[str, Any] | None:
    shard = shard_for(name, universe)
    if not shard:
        return None
    found: dict[str, Any] | None = _load(SHARDS[universe][shard])["objects"].get(name)
    return found


@dataclass(frozen=True, slots=True)
class _Found:
    """What a name resolved to: a public name's canonical name and kind, or a class member."""

    canonical: str
    kind: Kind
    owner: str | None = None  # the class that defines the member (members only)
    member: Any = None  # the stored member record (members only)


def _spelling(name: str, flavor: str) -> str | None:
    """The name in the data set's own spelling, or None when the flavour does not cover it."""
    head = name.split(".", 1)[0]
    if flavor == "tensorflow":
        return name if head == "tensorflow" else None
    if flavor == "keras3":
        return name if head == "keras" else None
    if flavor == "tf_keras":
        for prefix in ("tensorflow.keras", "tf_keras"):
            if name == prefix or name.startswith(prefix + "."):
                return "keras" + name[len(prefix) :]
        return name if head in ("keras", "tensorflow") else None
    raise ValueError(f"unknown flavour {flavor!r}; expected one of {FLAVORS}")


@lru_cache(maxsize=4096)
def _resolve(name: str, flavor: str) -> _Found | Literal[False] | None:
    """False: covered and absent; None: not covered."""
    spelled = _spelling(name, flavor)
    if spelled is None:
        return None
    universe = _UNIVERSE[flavor]
    if flavor == "tf_keras" and spelled.startswith("tensorflow."):
        # TensorFlow itself is the same; only names that TF_USE_LEGACY_KERAS=1 adds differ.
        legacy = _load("tf_keras.tensorflow")["names"].get(spelled)
        if legacy is not None:
            return _Found(legacy[2:] or spelled, _KINDS[legacy[0]])
        return _resolve(spelled, "tensorflow")
    current = spelled
    for _ in range(8):  # module aliases chain a few times at most
        entry = _names(universe, current).get(current)
        if entry is not None:
            return _Found(entry[2:] or current, _KINDS[entry[0]])
        parts = current.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            found = _names(universe, prefix).get(prefix)
            if found is None:
                continue
            code, canon = found[0], found[2:] or prefix
            rest = parts[i:]
            if code == "m" and canon != prefix:
                current = ".".join([canon, *rest])
                break  # follow the module alias
            if code == "c" and len(rest) == 1:
                return _member(universe, canon, rest[0]) or False
            return False
        else:
            return False
    return False


def _member(universe: str, cls: str, member: str) -> _Found | None:
    for klass in (cls, *_bases(universe, cls)):
        record = _object(universe, klass)
        if record is None:
            continue
        value = record.get("m", {}).get(member)
        if value is not None:
            code = value if isinstance(value, str) else value[0]
            return _Found(f"{klass}.{member}", _KINDS[code], klass, value)
    return None


def _bases(universe: str, cls: str) -> tuple[str, ...]:
    record = _object(universe, cls)
    return tuple(record.get("b", ())) if record else ()


def exists(name: str, flavor: str) -> bool | None:
    """Whether ``name`` exists in the flavour (None: the flavour does not cover the name)."""
    found = _resolve(name, flavor)
    return None if found is None else found is not False


def kind(name: str, flavor: str) -> Kind | None:
    """``module``, ``class``, ``function`` (methods too) or ``other``; None when absent."""
    found = _resolve(name, flavor)
    return found.kind if found else None


def canonical(name: str, flavor: str) -> str | None:
    """One name per object: ``keras.layers.Layer`` -> ``keras.Layer``.

    Under ``"tensorflow"`` a Keras 3 object reached through ``tensorflow.keras`` answers its
    ``keras.*`` name; a class member answers ``<defining class>.<member>``.
    """
    found = _resolve(name, flavor)
    return found.canonical if found else None


def bases(name: str, flavor: str) -> tuple[str, ...]:
    """Public base classes of a class, in MRO order, as canonical names (not ``object``)."""
    found = _resolve(name, flavor)
    if not found or found.kind != "class" or found.owner is not None:
        return ()
    return _bases(_UNIVERSE[flavor], found.canonical)


def is_subclass(name: str, base: str, flavor: str) -> bool | None:
    """Whether class ``name`` is ``base`` or derives from it (None: either is unknown)."""
    found = _resolve(name, flavor)
    target = _resolve(base, flavor)
    if not found or not target or found.kind != "class" or target.kind != "class":
        return None
    return target.canonical == found.canonical or target.canonical in bases(name, flavor)


def members(name: str, flavor: str) -> tuple[str, ...]:
    """Public members of a class (inherited ones included), sorted; () when not a class."""
    found = _resolve(name, flavor)
    if not found or found.kind != "class" or found.owner is not None:
        return ()
    universe = _UNIVERSE[flavor]
    out: set[str] = set()
    for klass in (found.canonical, *_bases(universe, found.canonical)):
        out.update((_object(universe, klass) or {}).get("m", {}))
    return tuple(sorted(out))


def signature(name: str, flavor: str) -> Signature | None:
    """How a call of ``name`` binds: a function, a class (its constructor) or a method."""
    found = _resolve(name, flavor)
    if not found:
        return None
    if found.owner is not None:
        text = found.member[1] if isinstance(found.member, list) and len(found.member) > 1 else None
    else:
        text = (_object(_UNIVERSE[flavor], found.canonical) or {}).get("s")
    return parse_signature(text) if text else None


def returns(name: str, flavor: str) -> str | None:
    """What calling ``name`` returns, in the vocabulary above; None when not certain."""
    found = _resolve(name, flavor)
    if not found:
        return None
    if found.owner is not None:
        value = found.member
        return value[2] if isinstance(value, list) and len(value) > 2 else None
    result: str | None = (_object(_UNIVERSE[flavor], found.canonical) or {}).get("r")
    return result


def method_returns(class_name: str, method: str, flavor: str) -> str | None:
    """What ``instance.method(...)`` returns for an instance of ``class_name``."""
    return returns(f"{class_name}.{method}", flavor)


def versions() -> dict[str, Any]:
    """The library versions the data was generated from."""
    meta: dict[str, Any] = _load("meta")
    return dict(meta)


# -- TF1 -> TF2 -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TF1Removed:
    """A TF1 name TensorFlow 2.21 lacks.

    ``key`` is the removed name that matched (``tensorflow.contrib`` for any name below it);
    ``compat`` says whether ``tensorflow.compat.v1.<same path>`` still exists;
    ``replacement`` is a TF2 name when the tables or the objects name one (else "");
    ``same_object``: ``tensorflow.compat.v1.<path>`` is the very object ``replacement`` holds.
    ``sources``: which tables name it (``renames``, ``reorders``, ``keywords``,
    ``module_deprecations`` from tf_upgrade_v2; ``compat.v1``: a name of tf.compat.v1).
    """

    key: str
    compat: bool
    replacement: str = ""
    same_object: bool = False
    sources: tuple[str, ...] = field(default=())


def _tf1() -> dict[str, Any]:
    data: dict[str, Any] = _load("tf1")
    return data


def tf1_removed(name: str) -> TF1Removed | None:
    """The removal that covers ``name`` (``tensorflow.Session``, ``tensorflow.contrib.slim``)."""
    removed = _tf1()["removed"]
    parts = name.split(".")
    for end in range(len(parts), 1, -1):
        key = ".".join(parts[:end])
        info = removed.get(key)
        if info is not None:
            return TF1Removed(
                key,
                bool(info.get("compat")),
                info.get("replacement", ""),
                bool(info.get("same_object")),
                tuple(info.get("sources", ())),
            )
    return None


def tf1_reorders(name: str) -> tuple[str | None, ...] | None:
    """TF1's positional parameter order of a function tf_upgrade_v2 reorders (None: same)."""
    found = _tf1()["reorders"].get(name)
    return tuple(found) if found is not None else None


def tf1_keyword_renames(name: str) -> dict[str, str | None] | None:
    """TF1 keyword -> TF2 keyword (None: the keyword was removed) for one function."""
    found = _tf1()["keyword_renames"].get(name)
    return dict(found) if found is not None else None


def tf1_renames() -> dict[str, str]:
    """tf_upgrade_v2's symbol renames, TF1 name -> TF2 name, as the tables state them."""
    return dict(_tf1()["renames"])


# -- Keras 2 -> Keras 3 -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Keras3Removed:
    """A tf-keras name (or class member) that Keras 3 lacks.

    ``key``: the matched tf-keras name; ``kind``: its kind in tf-keras; ``member``: it is a
    method or attribute of a class; ``replacement``: the one Keras 3 object with the same last
    name and kind, when exactly one exists (else "").
    """

    key: str
    kind: str
    member: bool = False
    replacement: str = ""


@dataclass(frozen=True, slots=True)
class Keras3ParamChanges:
    """How a tf-keras callable's parameters differ in Keras 3.

    ``removed``: parameters Keras 3's signature lacks; ``renamed``: old -> new (same position,
    same default); ``moved``: positional index in tf-keras -> in Keras 3 (None: keyword-only
    now); ``kwargs``: Keras 3 takes ``**kwargs`` (a removed keyword may still be swallowed or
    rejected there); ``mentioned``: removed names that Keras 3's source still spells as a
    string (usually a deprecation shim or an explicit error); ``keras3``: the Keras 3 name.
    """

    key: str
    keras3: str
    removed: tuple[str, ...] = ()
    renamed: dict[str, str] = field(default_factory=dict)
    moved: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    kwargs: bool = False
    mentioned: tuple[str, ...] = ()


def _keras3() -> dict[str, Any]:
    data: dict[str, Any] = _load("keras3_migration")
    return data


def keras3_removed(name: str) -> Keras3Removed | None:
    """What Keras 3 removed of ``name`` (a tf-keras ``keras.*`` name, members included)."""
    spelled = _spelling(name, "tf_keras")
    if spelled is None:
        return None
    data = _keras3()
    found = _resolve(spelled, "tf_keras")
    if found and found.owner is not None:
        info = data["removed_members"].get(found.canonical)
        if info is not None:
            return Keras3Removed(found.canonical, info["kind"], True, info.get("replacement", ""))
    parts = spelled.split(".")
    for end in range(len(parts), 1, -1):
        key = ".".join(parts[:end])
        info = data["removed"].get(key)
        if info is not None:
            return Keras3Removed(key, info["kind"], False, info.get("replacement", ""))
    return None


def keras3_removed_members() -> tuple[str, ...]:
    """Every tf-keras class member Keras 3 lacks (``keras.Model.fit_generator``), sorted."""
    return tuple(sorted(_keras3()["removed_members"]))


def keras3_changed_callables() -> tuple[str, ...]:
    """Every tf-keras callable whose parameters differ in Keras 3 (keys of
    :func:`keras3_param_changes`), sorted."""
    return tuple(sorted(_keras3()["param_changes"]))


def keras3_param_changes(name: str) -> Keras3ParamChanges | None:
    """Parameter changes of a tf-keras function, class (constructor) or method in Keras 3."""
    spelled = _spelling(name, "tf_keras")
    if spelled is None:
        return None
    found = _resolve(spelled, "tf_keras")
    key = found.canonical if found else spelled
    info = _keras3()["param_changes"].get(key)
    if info is None:
        return None
    return Keras3ParamChanges(
        key,
        info["keras3"],
        tuple(info.get("removed", ())),
        dict(info.get("renamed", {})),
        {k: (v[0], v[1]) for k, v in info.get("moved", {}).items()},
        bool(info.get("kwargs")),
        tuple(info.get("mentioned", ())),
    )


def keras3_constructor_kwargs(name: str) -> tuple[str, ...]:
    """Keywords a Keras 3 class's constructor reads from ``**kwargs`` by name.

    ``name`` is a Keras 3 spelling (``keras.*``, or ``tensorflow.keras.*`` as TF 2.21 has it).

    ``keras.layers.LSTM`` -> ``("dtype", "implementation", "input_dim", "input_shape",
    "trainable")``: a call may pass them although no signature names them (``Layer.__init__``
    takes ``input_shape=`` this way).  Empty for classes without such reads and for names the
    data does not know.
    """
    found = _resolve(name, "tensorflow" if name.startswith("tensorflow.") else "keras3")
    if not found or found.kind != "class":
        return ()
    return tuple(_keras3().get("constructor_kwargs", {}).get(found.canonical, ()))


@cache
def _keras3_by_last_name() -> dict[str, dict[str, list[str]]]:
    """Last part of a public Keras 3 class or function name -> canonical -> modules holding it."""
    out: dict[str, dict[str, list[str]]] = {}
    for name, entry in _load(SHARDS["tensorflow"]["keras"])["names"].items():
        if entry[0] not in ("c", "f"):
            continue
        module, _, last = name.rpartition(".")
        canon = entry[2:] or name
        out.setdefault(last, {}).setdefault(canon, []).append(module)
    return out


def keras3_homes(last: str) -> tuple[str, ...]:
    """The public Keras 3 modules that hold the one class or function named ``last``.

    ``"InputSpec"`` -> ``("keras.layers", "keras")``, the most specific module first; () when no
    Keras 3 object has that name or several different ones do.
    """
    found = _keras3_by_last_name().get(last, {})
    if len(found) != 1:
        return ()
    modules = next(iter(found.values()))
    return tuple(sorted(set(modules), key=lambda m: (-m.count("."), m)))
