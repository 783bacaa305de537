"""TFL609, TFL612, TFL613: Keras names and modules the targeted Keras does not have.

A name is looked up in the API data in the spelling the code uses (:func:`flavor_for`), part by
part, until the first part that does not exist:

- under ``tf.compat.v1.keras``, and tf-keras has it: TFL612 (only tf-keras provides it);
- tf-keras has it and Keras 3 dropped it (``keras3_removed``): TFL609, naming the Keras 3 object
  the data gives as its replacement;
- neither has it: a module used as one (imported, or read through) is TFL613 (an internal
  module of older Keras, or ``keras.src``); a plain name is TFL609 (gone from both);
- anything under ``tensorflow.python.keras``: TFL613 (TensorFlow's stale Keras 2 copy).

Uses of a name imported from a missing module are not reported again: the import is.  Code in a
``try`` that catches ``ImportError``/``AttributeError`` expects the name may be missing and is
left alone.  Members of classes are TFL607/TFL610's.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from tflsp.analysis import apidata
from tflsp.analysis.block_names import name_chains
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors import keras_backend_names as kb
from tflsp.analysis.detectors.keras3_support import (
    PYTHON_KERAS,
    flavor_for,
    guarded,
    keras_root,
    raw_name,
)
from tflsp.analysis.detectors.migration import assigned
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v

# Names TF 2.0 already removed from keras.backend (no session, no ``K.tf``): message variant.
_SESSION = frozenset({"get_session", "set_session", "tf"})
# Only tf.compat.v1.keras is a module of its own: tf.compat.v2 is TensorFlow 2 itself.
_COMPAT_KERAS = ("tensorflow.compat.v1.keras.",)
_COMPAT_V2 = "tensorflow.compat.v2."
_BACKEND = re.compile(r"^(?:tensorflow\.)?keras\.backend\.\w+$")


@dataclass(slots=True)
class Missing:
    """What is missing in a name: the code to report, the missing name and how to say it."""

    code: str
    name: str
    variant: str
    replacement: str = ""
    public: str = ""
    fixable: bool = False  # the replacement is one object the data names (not advice)


# TensorFlow 2 loads these modules from Keras: ``tf.losses`` is ``tf.keras.losses`` (checked
# against the data in tests/analysis/test_apidata.py), so under Keras 3 they lack what
# tf-keras had, as ``tf.keras`` does (``tf.losses.mean_squared_error``).
KERAS_MODULE_ALIASES = ("losses", "metrics", "optimizers", "initializers")


def keras_alias(name: str) -> str | None:
    """``tensorflow.losses.X`` -> ``tensorflow.keras.losses.X`` (None: not such a name)."""
    module, _, rest = name.removeprefix("tensorflow.").partition(".")
    if not name.startswith("tensorflow.") or module not in KERAS_MODULE_ALIASES or not rest:
        return None
    return f"tensorflow.keras.{module}.{rest}"


def tf2_spelling(name: str) -> str:
    """``tensorflow.compat.v2.keras.X`` is ``tensorflow.keras.X`` (``import tensorflow.compat.v2
    as tf``): the same object, one spelling for the data."""
    return "tensorflow." + name[len(_COMPAT_V2) :] if name.startswith(_COMPAT_V2) else name


def missing(name: str, keras_version: int, as_module: bool) -> Missing | None:
    """What is missing in ``name`` (a raw library name); None when it exists or is unknown.

    The answer is a fresh copy: callers adjust it.
    """
    found = _missing(tf2_spelling(name), keras_version, as_module)
    return None if found is None else dataclasses.replace(found)


@lru_cache(maxsize=4096)
def _missing(name: str, keras_version: int, as_module: bool) -> Missing | None:
    """What is missing in ``name`` (a raw library name); None when it exists or is unknown.

    ``as_module``: the code uses the whole name as a module (``import a.b``, ``from a.b import``).
    """
    root = keras_root(name)
    if root is None:
        return None
    prefix, start = root
    parts = name.split(".")
    if prefix == PYTHON_KERAS:
        public = "tensorflow.keras" + name[len(PYTHON_KERAS) :]
        if not apidata.exists(public, flavor_for(public, keras_version)):
            public = "tensorflow.keras"
        return Missing("TFL613", PYTHON_KERAS, "python_keras", public=public)
    flavor = flavor_for(name, keras_version)
    for end in range(start + 1, len(parts) + 1):
        if parts[end - 1].startswith("_"):
            return None  # private and dunder attributes: the data does not list them
        candidate = ".".join(parts[:end])
        exists = apidata.exists(candidate, flavor)
        if exists is None:
            return None
        if exists:
            continue
        if apidata.kind(".".join(parts[: end - 1]), flavor) == "class":
            return None  # a class member: TFL607/TFL610
        return _classify(name, candidate, flavor, keras_version, as_module or end < len(parts))
    return None


def _classify(
    full: str, name: str, flavor: str, keras_version: int, module_use: bool
) -> Missing | None:
    in_tf_keras = apidata.exists(name, "tf_keras")
    last = name.rpartition(".")[2]
    if name.startswith(_COMPAT_KERAS):
        if not (in_tf_keras and keras_version == 3):
            return None
        variant = "session" if last in _SESSION else "default"
        return Missing("TFL612", name, "track_tf1" if "track_tf1" in last else variant)
    if flavor != "tf_keras" and (in_tf_keras or apidata.keras3_removed(name) is not None):
        if keras_version != 3:
            return None
        # A class below a removed module may have a Keras 3 home of its own
        # (layers.experimental.preprocessing.Rescaling -> layers.Rescaling).
        replacement = ""
        removed = apidata.keras3_removed(full)
        root = keras_root(full)
        if removed is not None and removed.kind != "module" and removed.replacement and root:
            replacement = removed.replacement
            name = root[0] + removed.key[len("keras") :]
        found = Missing(
            "TFL609", name, "default", replacement=replacement, fixable=bool(replacement)
        )
        if not replacement and _BACKEND.match(name) and last in kb.MISSING_IN_KERAS3:
            # keras.backend math: the table of what Keras 3 code does instead (tested on the data).
            found.replacement = kb.replacement_for(last).strip("`")
        elif not replacement and (standalone := _standalone(name)) is not None:
            found.replacement = standalone  # tf.keras's shim lacks what `import keras` has
        elif not replacement:
            experimental = "experimental" in name
            found.variant = (
                "preprocessing"
                if ".preprocessing." in name and not experimental
                else "no_replacement"
            )
        return found
    if module_use and last not in _SESSION:
        if last == "src":
            return None  # keras.src: private, but the data cannot tell which paths exist
        return Missing("TFL613", name, "no_public")
    if keras_version != 3:
        return None
    return Missing("TFL609", name, "session" if last in _SESSION else "gone")


def _standalone(name: str) -> str | None:
    """``tf.keras.losses.mean_squared_error`` -> ``keras.losses.mean_squared_error``: under
    Keras 3, ``tf.keras`` is a compatibility module that lacks a few names Keras 3 has."""
    prefix = "tensorflow.keras."
    if not name.startswith(prefix):
        return None
    other = "keras." + name[len(prefix) :]
    return other if apidata.exists(other, "keras3") else None


@detector("TFL609", "TFL612", "TFL613")
def keras3_missing_names(ctx: BlockContext) -> None:
    version = ctx.keras_version
    skip: set[str] = set()  # root names that held no TensorFlow or Keras name (a cheap filter)
    for node, root in name_chains(ctx):
        if root.id in skip:
            continue
        head = raw_name(ctx, root)
        head = head and tf2_spelling(head)
        if head is None and not v.is_unknown(ctx.value(root)):
            skip.add(root.id)
        if head is None or not head.startswith(("keras", "tensorflow", "tf_keras")):
            continue  # cheap: the chain does not start from TensorFlow or Keras
        if keras_root(head) is not None and missing(head, version, as_module=True) is not None:
            continue  # reported where the head was imported or bound
        name = raw_name(ctx, node)
        name = name and tf2_spelling(name)
        if name is not None and (alias := keras_alias(name)) is not None:
            _report_alias(ctx, node, name, alias, version)
            continue
        if name is None or keras_root(name) is None:
            continue
        found = missing(name, version, as_module=False)
        if found is None or guarded(ctx, node) or _backend_of_tfl602(found):
            continue
        if found.code == "TFL613" and found.variant != "python_keras":
            # Read through as an attribute, a missing name is just missing (keras.ops.random):
            # only an import says it was meant as a module of older Keras.
            if version != 3:
                continue
            found = Missing("TFL609", found.name, "gone")
        target = _strip(node, name, found.name)
        if assigned(ctx, target):
            continue
        _report(ctx, target, found, _chain_fix(ctx, target, head, root, found))
    _imports(ctx, version)


def _report_alias(ctx: BlockContext, node: ast.expr, name: str, alias: str, version: int) -> None:
    """``tf.losses.mean_squared_error``: a tf-keras name Keras 3's ``tf.keras`` dropped.

    A name neither Keras has (``tf.losses.softmax_cross_entropy``) is TF1's, TFL601's."""
    found = missing(alias, version, as_module=False)
    if (
        found is None
        or found.code != "TFL609"
        or not apidata.exists(found.name, "tf_keras")
        or guarded(ctx, node)
    ):
        return
    # Said in the code's own spelling (tf.losses, not tf.keras.losses).
    found.name = "tensorflow." + found.name[len("tensorflow.keras.") :]
    _report(ctx, _strip(node, name, found.name), found, None)


def _backend_of_tfl602(found: Missing) -> bool:
    """``K.mean`` read as an attribute: TFL602 has reported these keras.backend functions
    since 0.1 (with the keras.ops replacement); one code per finding, so TFL609 leaves them."""
    return (
        found.code == "TFL609"
        and _BACKEND.match(found.name) is not None
        and found.name.rpartition(".")[2] in kb.MISSING_IN_KERAS3
    )


def _strip(node: ast.expr, name: str, prefix: str) -> ast.expr:
    """The part of the chain ``node`` (spelling ``name``) that spells ``prefix``."""
    for _ in range(name.count(".") - prefix.count(".")):
        if isinstance(node, ast.Attribute):
            node = node.value
    return node


def _chain_fix(
    ctx: BlockContext, node: ast.expr, head: str, root: ast.Name, found: Missing
) -> Fix | None:
    """``tf.keras.layers.experimental.preprocessing.Rescaling`` -> ``tf.keras.layers.Rescaling``:
    the replacement in the code's own spelling of Keras."""
    if found.code != "TFL609" or not found.fixable:
        return None
    keras_prefix = keras_root(found.name)
    if keras_prefix is None:
        return None
    # The sub-chain that spells the Keras package (``tf.keras``, ``keras``) keeps its spelling.
    package = _strip(node, found.name, keras_prefix[0])
    if not isinstance(package, (ast.Name, ast.Attribute)) or keras_root(head) not in (
        None,
        keras_prefix,
    ):
        return None
    new = ctx.source(package) + found.replacement[len("keras") :]
    return ctx.fix(ctx.replace(node, new), safe=False, replacement=new)


def _imports(ctx: BlockContext, version: int) -> None:
    for node in ctx.index.nodes(ast.Import):
        for alias in node.names:
            found = missing(alias.name, version, as_module=True)
            if found is not None and not guarded(ctx, node):
                _report(ctx, node, found, None, error="ModuleNotFoundError")
    for imp in ctx.index.nodes(ast.ImportFrom):
        if imp.level or not imp.module or guarded(ctx, imp):
            continue
        names = [a.name for a in imp.names if a.name != "*"]
        found = missing(imp.module, version, as_module=True)
        if found is not None:
            _from_missing_module(ctx, imp, found, names, version)
            continue
        for name in names:
            found = missing(f"{imp.module}.{name}", version, as_module=False)
            if found is not None:
                fix = _module_fix(ctx, imp, found.replacement.rpartition(".")[0])
                _report(ctx, imp, found, fix, error="ImportError")
                break


def _from_missing_module(
    ctx: BlockContext, imp: ast.ImportFrom, found: Missing, names: list[str], version: int
) -> None:
    """``from <missing module> import a, b``: one finding, with a public home when known."""
    assert imp.module is not None
    fix = None
    if found.code == "TFL613" and found.variant == "no_public" and names:
        homes = {apidata.keras3_homes(name)[:1] for name in names}
        if len(homes) == 1 and (home := next(iter(homes))):
            found.variant, found.public = "default", home[0]
    if found.code == "TFL609" and names:
        # Each imported name may have its own Keras 3 home (experimental.preprocessing.X).
        replaced = [apidata.keras3_removed(f"{imp.module}.{n}") for n in names]
        news = [r.replacement for r in replaced if r is not None and r.replacement]
        if len(news) == len(names):
            found.replacement = ", ".join(news)
            found.variant = "default"
            modules = {new.rpartition(".")[0] for new in news}
            if len(modules) == 1 and all(
                new.rpartition(".")[2] == n for new, n in zip(news, names, strict=True)
            ):
                fix = _module_fix(ctx, imp, next(iter(modules)))
    if found.code == "TFL613" and found.public:
        fix = _module_fix(ctx, imp, found.public)
    _report(ctx, imp, found, fix, error="ModuleNotFoundError")


def _module_fix(ctx: BlockContext, imp: ast.ImportFrom, module: str) -> Fix | None:
    """``from old.module import a`` -> ``from new.module import a``, in the code's spelling."""
    if not module or imp.module is None:
        return None
    root = keras_root(imp.module)
    if root is None:
        return None
    if module.startswith("keras") and root[0] not in (PYTHON_KERAS, "tf_keras"):
        module = root[0] + module[len("keras") :]
    line = imp.lineno
    match = re.match(rf"(\s*from\s+){re.escape(imp.module)}\s+import\b", ctx.line_text(line))
    if match is None:
        return None
    col = match.end(1)
    edit = Edit(line, col, line, col + len(imp.module), module)
    return ctx.fix(edit, safe=False, replacement=module, public=module)


def _report(
    ctx: BlockContext,
    node: ast.AST,
    found: Missing,
    fix: Fix | None,
    *,
    error: str = "AttributeError",
) -> None:
    if found.code == "TFL613":
        names = (
            ", ".join(a.name for a in node.names if a.name != "*")
            if isinstance(node, ast.ImportFrom)
            else ""
        )
        args = {"module": found.name, "name": names or "what you need", "public": found.public}
        ctx.report("TFL613", node, message=found.variant, args=args, fix=fix)
        return
    args = {"name": _display(found.name), "error": error, "replacement": found.replacement}
    ctx.report(found.code, node, message=found.variant, args=args, fix=fix)


def _display(name: str) -> str:
    return "tf." + name[len("tensorflow.") :] if name.startswith("tensorflow.") else name
