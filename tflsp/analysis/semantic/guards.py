"""Compatibility branches: code that only runs when TensorFlow is 1.x, or has a TF1 API.

Libraries that supported both TensorFlow 1 and 2 keep their TF1 code behind a test of the
version (``if tf.__version__ < "2"``, ``LooseVersion(tf.__version__) < LooseVersion("2.0")``,
``int(tf.__version__.split(".")[0]) == 1``) or of the API itself (``if hasattr(tf, "contrib")``).
On TensorFlow 2.21 such a test has one known value, so one side of the branch never runs:
:func:`unreachable_on_tf2` says so for a node, and a rule about removed TF1 APIs stays silent
there.  A test that asks anything else is unknown, and both sides may run.

``resolve`` gives the canonical library name an expression refers to (``tensorflow.__version__``),
``exists`` whether a ``tensorflow.*`` name exists on TF 2.21 (True/False, None: unknown), and
``reaching`` the value expressions a plain name may hold there (``TF1 = hasattr(tf, "contrib")``
earlier in the block; None when not known).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable

from tflsp.analysis import apidata
from tflsp.analysis.index import NodeIndex

Resolve = Callable[[ast.expr], str | None]
Exists = Callable[[str], bool | None]
Reaching = Callable[[ast.Name], list[ast.expr] | None]


@functools.cache
def tf_version() -> str:
    """The TensorFlow the API data describes (what ``tf.__version__`` holds)."""
    return str(apidata.versions().get("tensorflow", "2"))


_VERSION_NAMES = frozenset(
    {"tensorflow.__version__", "tensorflow.version.VERSION", "tensorflow.VERSION"}
)
# Callables that turn a version string into something ordered (distutils, packaging, pkg_resources).
_VERSION_PARSERS = frozenset({"LooseVersion", "StrictVersion", "Version", "parse", "parse_version"})
_STR_METHODS = frozenset({"startswith", "endswith", "split", "strip"})
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


class _Unknown(Exception):
    pass


class _Guards:
    def __init__(self, resolve: Resolve, exists: Exists, reaching: Reaching) -> None:
        self.resolve = resolve
        self.exists = exists
        self.reaching = reaching
        self.depth = 0

    # -- truth of a test on TF 2 ------------------------------------------------------------
    def truth(self, test: ast.expr) -> bool | None:
        try:
            return bool(self.value(test))
        except _Unknown:
            return None

    def value(self, node: ast.expr) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.BoolOp):
            return self._boolop(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.value(node.operand)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, (ast.Attribute, ast.Name)) and self.resolve(node) in _VERSION_NAMES:
            return tf_version()
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Attribute) and node.attr in ("release", "version"):
            parsed = self.value(node.value)  # Version(...).release, LooseVersion(...).version
            if isinstance(parsed, tuple):
                return parsed
            raise _Unknown
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        raise _Unknown

    def _boolop(self, node: ast.BoolOp) -> object:
        # Python's short circuit: a known False ends an ``and`` whatever follows (and a known
        # True an ``or``); an unknown operand before it keeps the whole test unknown.
        unknown = False
        last: object = None
        for operand in node.values:
            try:
                last = self.value(operand)
            except _Unknown:
                unknown = True
                continue
            if isinstance(node.op, ast.And) and not last:
                return last
            if isinstance(node.op, ast.Or) and last:
                return last
        if unknown:
            raise _Unknown
        return last

    def _compare(self, node: ast.Compare) -> bool:
        left = self.value(node.left)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.value(right_node)
            try:
                ok = _COMPARE[type(op)](left, right)
            except (KeyError, TypeError) as error:
                raise _Unknown from error
            if not ok:
                return False
            left = right
        return True

    def _name(self, node: ast.Name) -> object:
        values = self.reaching(node)
        if not values or self.depth > 4:
            raise _Unknown
        self.depth += 1
        try:
            found = {repr(self.value(value)) for value in values}
            if len(found) != 1:
                raise _Unknown
            return self.value(values[0])
        finally:
            self.depth -= 1

    def _subscript(self, node: ast.Subscript) -> object:
        base = self.value(node.value)
        index = node.slice
        try:
            if isinstance(index, ast.Slice):
                parts = [None if p is None else self.value(p) for p in (index.lower, index.upper)]
                return base[parts[0] : parts[1]]  # type: ignore[index]
            return base[self.value(index)]  # type: ignore[index]
        except (TypeError, IndexError, KeyError) as error:
            raise _Unknown from error

    def _call(self, node: ast.Call) -> object:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("hasattr", "getattr") and len(node.args) >= 2:
            return self._hasattr(node)
        args = [self.value(a) for a in node.args] if not node.keywords else None
        if args is None:
            raise _Unknown
        if isinstance(func, ast.Attribute) and func.attr in _STR_METHODS:
            receiver = self.value(func.value)
            if not isinstance(receiver, str) or not all(isinstance(a, str) for a in args):
                raise _Unknown
            return getattr(receiver, func.attr)(*args)
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in ("int", "float", "str") and len(args) == 1:
            try:
                return {"int": int, "float": float, "str": str}[name](args[0])
            except (TypeError, ValueError) as error:
                raise _Unknown from error
        if name == "tuple" and len(args) == 1 and isinstance(args[0], (list, tuple)):
            return tuple(args[0])
        if name in _VERSION_PARSERS and len(args) == 1 and isinstance(args[0], str):
            return _release(args[0])
        raise _Unknown

    def _hasattr(self, node: ast.Call) -> object:
        """``hasattr(tf, "contrib")`` (or ``getattr(tf, "contrib", None)`` as a test)."""
        owner, attr = node.args[0], node.args[1]
        if not isinstance(attr, ast.Constant) or not isinstance(attr.value, str):
            raise _Unknown
        if node.func.id == "getattr" and not (  # type: ignore[attr-defined]
            len(node.args) == 3
            and isinstance(node.args[2], ast.Constant)
            and node.args[2].value in (None, False)
        ):
            raise _Unknown
        base = self.resolve(owner) if isinstance(owner, (ast.Name, ast.Attribute)) else None
        if base is None or not (base == "tensorflow" or base.startswith("tensorflow.")):
            raise _Unknown
        found = self.exists(f"{base}.{attr.value}")
        if found is None:
            raise _Unknown
        return found


_COMPARE: dict[type, Callable[[object, object], bool]] = {
    ast.Lt: lambda a, b: a < b,  # type: ignore[operator]
    ast.LtE: lambda a, b: a <= b,  # type: ignore[operator]
    ast.Gt: lambda a, b: a > b,  # type: ignore[operator]
    ast.GtE: lambda a, b: a >= b,  # type: ignore[operator]
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: a in b,  # type: ignore[operator]
    ast.NotIn: lambda a, b: a not in b,  # type: ignore[operator]
}


def _release(text: str) -> tuple[int, ...]:
    """The numeric release of a version string (what every version parser orders by)."""
    found = re.match(r"\d+(?:\.\d+)*", text.strip())
    if found is None:
        raise _Unknown
    release = [int(p) for p in found.group(0).split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()  # 2.21.0 == 2.21, as version parsers compare them
    return tuple(release)


def _always_exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], _EXITS)


def unreachable_on_tf2(
    index: NodeIndex, node: ast.AST, resolve: Resolve, exists: Exists, reaching: Reaching
) -> bool:
    """``node`` sits in a branch that cannot run on TensorFlow 2.21 (through the defs and
    classes around it: a class defined only under ``if hasattr(tf, "contrib")`` never is)."""
    guards = _Guards(resolve, exists, reaching)
    child: ast.AST = node
    for parent in index.ancestors(node):
        if isinstance(parent, (ast.If, ast.While, ast.IfExp)):
            if child is not parent.test:
                in_body = (
                    child in parent.body if isinstance(parent.body, list) else child is parent.body
                )
                truth = guards.truth(parent.test)
                if truth is not None and truth != in_body:
                    return True
        elif isinstance(parent, ast.BoolOp) and child in parent.values:
            for earlier in parent.values[: parent.values.index(child)]:
                truth = guards.truth(earlier)
                if truth is not None and truth == isinstance(parent.op, ast.Or):
                    return True  # short-circuited before ``child``
        if isinstance(child, ast.stmt):
            for body in _bodies(parent):
                if child in body:
                    for stmt in body[: body.index(child)]:
                        if (
                            isinstance(stmt, ast.If)
                            and not stmt.orelse
                            and _always_exits(stmt.body)
                            and guards.truth(stmt.test) is True
                        ):
                            return True  # ``if tf2: return`` before it
                    break
        child = parent
    return False


# What a ``try`` catches when it expects a name or module to be missing.
_MISSING = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def expects_missing(index: NodeIndex, node: ast.AST) -> bool:
    """``node`` runs in a ``try`` whose handler catches a missing name or module (a TF1
    fallback: ``try: from tensorflow.contrib import ... except ImportError: ...``), or in
    such a handler: the fallback runs only when the preferred spelling is missing, which we
    cannot know (``try: from keras.src.utils import x`` / ``except ImportError: from
    keras.utils import x``)."""
    child: ast.AST = node
    for parent in index.ancestors(node):
        if (
            isinstance(parent, ast.Try)
            and child in parent.body
            and any(_catches_missing(handler) for handler in parent.handlers)
        ):
            return True
        if (
            isinstance(parent, ast.ExceptHandler)
            and child in parent.body
            and _catches_missing(parent)
        ):
            return True
        if isinstance(parent, _FUNCTIONS):
            return False  # a function defined in the ``try`` runs later, outside it
        child = parent
    return False


def _catches_missing(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(
        (n.id if isinstance(n, ast.Name) else getattr(n, "attr", "")) in _MISSING
        for n in names
        if n is not None
    )


def _bodies(node: ast.AST) -> list[list[ast.stmt]]:
    out = []
    for field in ("body", "orelse", "finalbody"):
        value = getattr(node, field, None)
        if isinstance(value, list):
            out.append(value)
    for handler in getattr(node, "handlers", ()):
        out.append(handler.body)
    return out
