"""Check the truth table of ``targets.py`` with TensorFlow, independently of the verifier.

Each claim is checked the plain way: import the target's module and ask Keras whether the
class is registered (TFL401), whether a Keras 3 Model with required constructor arguments
lacks its own ``get_config`` (TFL402), whether ``__init__`` takes ``**kwargs`` ("-": Keras
passes ``name``/``trainable``/``dtype`` back on load), whether a Keras 3 layer keeps a raw
``tf.Variable`` (TFL301, by building it and comparing ``weights``), and for the rest by running
the failing construct itself.  Prints one line per claim; exit status 1 when a claim does not
hold.

Usage: ``python -m tests.verify.realcode.ground_truth [--only KEY,...]``
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _keras_of(cls: type) -> Any:
    for klass in cls.__mro__:
        if klass.__module__.startswith("tf_keras"):
            import tf_keras

            return tf_keras
    import keras

    return keras


def registered(cls: type) -> bool:
    keras = _keras_of(cls)
    saving = getattr(keras, "saving", None) or keras.utils
    name = saving.get_registered_name(cls)
    return name != cls.__name__ and saving.get_registered_object(name) is cls


def takes_kwargs(cls: type) -> bool:
    parameters = inspect.signature(cls.__init__).parameters.values()  # type: ignore[misc]
    return any(p.kind is p.VAR_KEYWORD for p in parameters)


def lacks_get_config(cls: type) -> bool:
    keras = _keras_of(cls)
    own = any(
        "get_config" in vars(k)
        for k in cls.__mro__
        if not k.__module__.startswith(("keras", "tf_keras"))
    )
    required = [
        p
        for p in list(inspect.signature(cls.__init__).parameters.values())[1:]  # type: ignore[misc]
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    return keras.__name__ == "keras" and issubclass(cls, keras.Model) and not own and bool(required)


def raw_variables(cls: type) -> bool:
    """Source check: a Keras 3 layer assigns tf.Variable(...) to an attribute."""
    import ast

    keras = _keras_of(cls)
    if keras.__name__ != "keras":
        return False
    try:
        source = inspect.getsource(cls)
    except OSError:
        return False
    tree = ast.parse(source)
    found = any(
        isinstance(node, ast.Call) and ast.unparse(node.func).endswith("tf.Variable")
        for node in ast.walk(tree)
    )
    if found:
        return True
    # a sub-layer class of the same module that does it
    module = sys.modules[cls.__module__]
    for value in vars(module).values():
        if isinstance(value, type) and value is not cls and value.__module__ == cls.__module__:
            try:
                inner = inspect.getsource(value)
            except OSError:
                continue
            if "tf.Variable(" in inner and value.__name__ in source:
                return True
    return False


def _build(cls: type) -> Any:
    required = [
        p.name
        for p in list(inspect.signature(cls.__init__).parameters.values())[1:]  # type: ignore[misc]
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    return cls(**{name: 4 for name in required})


def always_fails(cls: type) -> bool:
    """Built with 4 for every required argument, called on a vector, a sequence or an image:
    it fails every time."""
    import tensorflow as tf

    for shape in ((2, 4), (2, 5, 4), (2, 8, 8, 4)):
        try:
            _build(cls)(tf.zeros(shape))
        except Exception:
            continue
        return False
    return True


def python_bool_in_graph(cls: type) -> bool:
    keras = _keras_of(cls)
    try:
        keras.Sequential([keras.Input((4,)), _build(cls)])
    except Exception as exc:
        return "bool" in str(exc)
    return False


def new_variables_per_call(cls: type) -> bool:
    import tensorflow as tf

    model = _build(cls)
    model(tf.zeros((2, 4)))
    created: list[Any] = []

    def creator(next_creator: Any, **kwargs: Any) -> Any:
        created.append(next_creator(**kwargs))
        return created[-1]

    with tf.variable_creator_scope(creator):
        model(tf.zeros((2, 4)))
    return bool(created)


def global_changes_only_while_tracing(function: Any) -> bool:
    module = sys.modules[function.__module__]
    lists = [v for v in vars(module).values() if isinstance(v, list)]
    import tensorflow as tf

    before = [len(v) for v in lists]
    function(tf.constant(1))
    function(tf.constant(2))
    traced = [len(v) - b for v, b in zip(lists, before, strict=True)]
    function.python_function(3)
    function.python_function(4)
    eager = [len(v) - b - t for v, b, t in zip(lists, before, traced, strict=True)]
    return any(t < e for t, e in zip(traced, eager, strict=True))


CHECKS = {
    "*": ("fails whatever it is given", always_fails),
    "TFL112": ("a Python bool of a tensor fails in a symbolic call", python_bool_in_graph),
    "TFL303": ("a second call creates variables", new_variables_per_call),
    "TFL103": ("a global list grows only while tracing", global_changes_only_while_tracing),
    "TFL401": ("not registered", lambda cls: not registered(cls)),
    "TFL402": ("a Keras 3 Model with required arguments and no get_config", lacks_get_config),
    "-": ("__init__ without **kwargs", lambda cls: not takes_kwargs(cls)),
    "TFL301": ("a raw tf.Variable on a Keras 3 layer", raw_variables),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.verify.realcode.run import make_bundle
    from tests.verify.realcode.targets import AUDIT, OWN

    only = set(args.only.split(",")) if args.only else None
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for index, target in enumerate(OWN + AUDIT):
            if not target.truth or (only and target.key not in only):
                continue
            path = Path(scratch) / f"gt_{index}.py"
            path.write_text(make_bundle(target, args.corpus).source, encoding="utf-8")
            try:
                module = _module(path, f"gt_{index}")
                cls = getattr(module, target.name)
            except Exception as exc:
                print(f"{target.key}: import fails: {type(exc).__name__}: {exc}")
                continue
            for probe, codes in sorted(target.truth.items()):
                for code in codes:
                    if code not in CHECKS:
                        print(f"{target.key} {probe} {code}: (checked by the verifier's own run)")
                        continue
                    what, check = CHECKS[code]
                    try:
                        holds = bool(check(cls))
                    except Exception as exc:
                        holds = False
                        what += f" (check failed: {exc})"
                    failures += not holds
                    print(f"{target.key} {probe} {code}: {what}: {'yes' if holds else 'NO'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
