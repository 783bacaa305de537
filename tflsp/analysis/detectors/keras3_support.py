"""What the Keras 3 removal rules (TFL607-TFL613) share: which API data answers for a name,
what a receiver is, and whether the code already guards against the failure.

The facts come from :mod:`tflsp.analysis.apidata` (tf-keras 2.21 and Keras 3.15 introspected);
the semantic model (``ctx.value``) says what a name or expression holds.  Library names keep
the spelling the code uses (``tensorflow.keras.backend.mean`` is not ``keras.backend.mean``:
under Keras 3 the first is a compatibility module that still has it), so every lookup starts
from the raw reference of a ``NAME`` value.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

from tflsp.analysis import apidata
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.migration import compat_branch
from tflsp.analysis.names import _KERAS_ALIASES, canonical
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.terms import MAX_SIZE

# Prefixes under which a name is a Keras name, with the number of dotted parts they take.
_KERAS_ROOTS = (
    ("tensorflow.compat.v1.keras", 4),
    ("tensorflow.compat.v2.keras", 4),
    ("tensorflow.python.keras", 3),
    ("tensorflow.keras", 2),
    ("tf_keras", 1),
    ("keras", 1),
)
PYTHON_KERAS = "tensorflow.python.keras"
# Exceptions that show the code expects the name may be missing (a try/except shim).
_GUARDS = frozenset(
    {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"}
)


@lru_cache(maxsize=4096)  # asked for every library name of every chain and call
def keras_root(name: str) -> tuple[str, int] | None:
    """The Keras prefix of a raw library name and how many parts it spans."""
    for prefix, parts in _KERAS_ROOTS:
        if name == prefix or name.startswith(prefix + "."):
            return prefix, parts
    return None


def flavor_for(name: str, keras_version: int) -> str:
    """The data flavour that says whether ``name`` exists for the targeted Keras.

    ``import keras`` is Keras 3 on TF 2.16 and later whatever ``tf.keras`` is; ``tf.keras`` is
    Keras 3's compatibility module, or tf-keras when the target is Keras 2.
    """
    if name == "keras" or name.startswith("keras."):
        return "keras3"
    if name == "tf_keras" or name.startswith("tf_keras."):
        return "tf_keras"
    return "tensorflow" if keras_version == 3 else "tf_keras"


def raw_name(ctx: BlockContext, expr: ast.AST) -> str | None:
    """The one library name ``expr`` refers to, as the code spells it (not canonicalised)."""
    if isinstance(expr, ast.Attribute) and ctx.model.imported is None:
        parts: list[str] = []
        root: ast.expr = expr
        while isinstance(root, ast.Attribute):
            parts.append(root.attr)
            root = root.value
        if isinstance(root, ast.Name):
            head = _one_name(ctx.value(root))
            # The attributes of a library name are library names (only names another file of
            # the workspace defines say otherwise): no need to evaluate each prefix.  A chain
            # whose term the semantic model would cut is evaluated as it is.
            if head is not None and ctx.semantics.terms.expr(root).size + len(parts) <= MAX_SIZE:
                return ".".join((head, *reversed(parts)))
    return _one_name(ctx.value(expr))


def _one_name(values: v.Values) -> str | None:
    found: str | None = None
    for value in values:
        if value.kind not in (v.NAME, v.MODULE) or value.is_local or not value.ref:
            return None
        if found is not None and value.ref != found:
            return None
        found = value.ref
    return found


def guarded(ctx: BlockContext, node: ast.AST) -> bool:
    """``node`` sits in a ``try`` whose handlers catch a missing name or module, or runs only
    when a ``hasattr()`` test says the name is there (``if hasattr(tf.keras.optimizers,
    "experimental") and ...``), or sits in a compatibility branch that cannot run on
    TensorFlow 2.21 (``else:`` of ``if Version(tf.__version__) >= Version("2.13"):``) or in
    the ``except ImportError:`` fallback of another spelling."""
    if compat_branch(ctx, node):
        return True
    child = node
    text = ctx.source(node) if isinstance(node, ast.Attribute) else None
    for scope in ctx.index.ancestors(node):
        if text is not None and _checked_by_hasattr(ctx, scope, child, text):
            return True
        if isinstance(scope, ast.Try) and child in scope.body:
            for handler in scope.handlers:
                caught = handler.type
                names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
                if caught is None or any(
                    isinstance(n, (ast.Name, ast.Attribute))
                    and (n.id if isinstance(n, ast.Name) else n.attr) in _GUARDS
                    for n in names
                ):
                    return True
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            break
        child = scope
    return False


def _checked_by_hasattr(ctx: BlockContext, scope: ast.AST, child: ast.AST, text: str) -> bool:
    """A test that must hold before ``child`` runs checks ``hasattr`` on a prefix of ``text``."""
    tests: list[ast.expr] = []
    if isinstance(scope, ast.BoolOp) and isinstance(scope.op, ast.And) and child in scope.values:
        tests = scope.values[: scope.values.index(child)]
    elif (isinstance(scope, ast.If) and child in scope.body) or (
        isinstance(scope, ast.IfExp) and child is scope.body
    ):
        tests = [scope.test]
    for test in tests:
        operands = (
            test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        )
        for call in operands:
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "hasattr"
                and len(call.args) == 2
                and isinstance(call.args[1], ast.Constant)
                and isinstance(call.args[1].value, str)
            ):
                checked = f"{ctx.source(call.args[0])}.{call.args[1].value}"
                if text == checked or text.startswith(checked + "."):
                    return True
    return False


def data_spellings(name: str) -> list[str]:
    """``name`` and the spellings of the same object the data may know it by.

    The project maps ``keras.layers.Layer`` to ``keras.Layer``; tf-keras's data only knows the
    first, Keras 3's both.
    """
    out = [name]
    for alias, target in _KERAS_ALIASES.items():
        if name == target or name.startswith(target + "."):
            out.append(alias + name[len(target) :])
    return out


def data_class(name: str, flavor: str) -> str | None:
    """The spelling of class ``name`` that ``flavor``'s data knows, or None."""
    for spelling in data_spellings(name):
        if apidata.kind(spelling, flavor) == "class":
            return spelling
    return None


# -- receivers ---------------------------------------------------------------------------------
KERAS_BASES = frozenset({v.MODEL, v.LAYER, v.METRIC, v.LOSS, v.OPTIMIZER, v.CALLBACK})


@dataclass(frozen=True, slots=True)
class Receiver:
    """What an object whose attribute is read is known to be.

    ``classes``: the Keras library classes it is an instance of (canonical names; for an
    instance of this module's class, the library classes that class derives from);
    ``base``: the TF/Keras base kinds; ``defines``: this module's classes define the member.
    """

    classes: tuple[str, ...]
    bases: frozenset[str]
    defines: bool


UNKNOWN_RECEIVER = Receiver((), frozenset(), False)


def receiver(ctx: BlockContext, expr: ast.AST, member: str) -> Receiver | None:
    """What ``expr`` holds when it is a Keras object (None: not one; ``UNKNOWN_RECEIVER``:
    nothing is known about it)."""
    values = ctx.value(expr)
    if v.is_unknown(values):
        return UNKNOWN_RECEIVER
    classes: list[str] = []
    bases: set[str] = set()
    defines = False
    for value in values:
        if value.kind != v.INSTANCE or value.base not in KERAS_BASES:
            return None
        bases.add(value.base)
        if not value.is_local:
            classes.append(value.ref)
            continue
        found, defined = local_class_bases(ctx, value.local_id, member)
        defines = defines or defined
        classes.extend(found)
    return Receiver(tuple(dict.fromkeys(classes)), frozenset(bases), defines)


def local_class_bases(ctx: BlockContext, gid: str, member: str) -> tuple[list[str], bool]:
    """The library classes a class of this module derives from, and whether it (or one of its
    local bases) defines ``member`` as a method or attribute."""
    model = ctx.model
    found: list[str] = []
    defines = False
    for cls_gid in model.mro(gid):
        entry = model.classes.get(cls_gid)
        if entry is None:
            continue
        facts = entry.facts
        if (
            member in facts.methods
            or any(name == member for name, _ in facts.attributes)
            or any(name == member for name, _ in facts.class_attributes)
        ):
            defines = True
        for base in facts.bases:
            for value in model.value(base, entry.block):
                if value.is_local or value.kind not in (v.NAME, v.CLASS) or not value.ref:
                    continue
                found.append(canonical(value.ref))
    return found, defines
