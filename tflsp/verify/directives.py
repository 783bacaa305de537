"""``# tflsp: verify(...)`` comments: how to construct and feed a probe target.  Stdlib only.

Put the comment on the line of the ``class``/``def`` (or a decorator), or on a comment line
directly above it::

    # tflsp: verify(args={"units": 5}, input_shape=(4, 3))
    class Scale(keras.layers.Layer):
        ...

Arguments are Python literals: ``args`` (a list for positional arguments, a dict for keyword
arguments), ``kwargs`` (a dict), ``input_shape`` (with the batch axis; a list of shapes for
several inputs), ``dtype`` (a string, or one per input) and ``inputs`` (one call's arguments: a
list of positional arguments or a dict of keyword arguments; nested lists of numbers become
tensors, ``{"shape": (2, 3), "dtype": "int32", "max": 10}`` a sample tensor of that shape,
``{"python": 5}`` the Python value itself).
"""

from __future__ import annotations

import ast
import re
from typing import Any

DIRECTIVE_RE = re.compile(r"#\s*tflsp:\s*verify\((?P<body>.*)\)\s*$")
KEYS = {"args", "kwargs", "input_shape", "dtype", "inputs"}


class DirectiveError(ValueError):
    """A ``# tflsp: verify(...)`` comment that cannot be read."""


def _definition(tree: ast.Module, target: str) -> ast.AST | None:
    scope: list[ast.stmt] = tree.body
    found: ast.AST | None = None
    for part in target.split("."):
        found = None
        for node in scope:
            if (
                isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and node.name == part
            ):
                found = node
                scope = node.body
                break
        if found is None:
            return None
    return found


def definition_line(source: str, target: str) -> int | None:
    """1-based line of ``class``/``def`` for ``target`` (``Outer.method`` allowed)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    node = _definition(tree, target)
    return getattr(node, "lineno", None)


def parse_directive(text: str, line: int = 0) -> dict[str, Any]:
    """Parse the argument list of one ``verify(...)`` comment."""
    match = DIRECTIVE_RE.search(text)
    if match is None:
        raise DirectiveError(f"line {line}: not a '# tflsp: verify(...)' comment")
    try:
        call = ast.parse(f"verify({match.group('body')})", mode="eval").body
    except SyntaxError as exc:
        raise DirectiveError(f"line {line}: cannot parse verify(...): {exc.msg}") from exc
    assert isinstance(call, ast.Call)
    if call.args:
        raise DirectiveError(f"line {line}: verify(...) takes keyword arguments only")
    out: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg not in KEYS:
            raise DirectiveError(
                f"line {line}: unknown verify() argument {keyword.arg!r} (known: {sorted(KEYS)})"
            )
        try:
            out[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError as exc:
            raise DirectiveError(f"line {line}: {keyword.arg}= must be a Python literal") from exc
    return normalise(out, f"line {line}")


def normalise(options: dict[str, Any], where: str = "request") -> dict[str, Any]:
    """Check types and bring ``args``/``kwargs``/``input_shape`` to one shape."""
    out = dict(options)
    args = out.pop("args", None)
    if isinstance(args, dict):
        out["kwargs"] = {**args, **out.get("kwargs", {})}
    elif isinstance(args, (list, tuple)):
        out["args"] = list(args)
    elif args is not None:
        raise DirectiveError(f"{where}: args must be a list (positional) or a dict (keywords)")
    if "kwargs" in out and not (
        isinstance(out["kwargs"], dict) and all(isinstance(k, str) for k in out["kwargs"])
    ):
        raise DirectiveError(f"{where}: kwargs must be a dict with string keys")
    if "input_shape" in out:
        shape = out["input_shape"]
        several = (
            isinstance(shape, (list, tuple)) and bool(shape) and isinstance(shape[0], (list, tuple))
        )
        shapes = list(shape) if several else [shape]
        if not shapes or not all(
            isinstance(s, (list, tuple)) and all(isinstance(n, int) and n > 0 for n in s)
            for s in shapes
        ):
            raise DirectiveError(
                f"{where}: input_shape must be a tuple of positive integers "
                "(or a list of such tuples, one per input)"
            )
        out["input_shape"] = [list(s) for s in shapes] if several else list(shape)
    if "dtype" in out:
        dtype = out["dtype"]
        if isinstance(dtype, (list, tuple)) and dtype and all(isinstance(d, str) for d in dtype):
            out["dtype"] = list(dtype)
        elif not isinstance(dtype, str):
            raise DirectiveError(f"{where}: dtype must be a string such as 'float32'")
    if "inputs" in out:
        inputs = out["inputs"]
        if isinstance(inputs, tuple):
            inputs = list(inputs)
        if not isinstance(inputs, (list, dict)):
            raise DirectiveError(
                f"{where}: inputs must be a list (positional arguments) or a dict (keyword "
                "arguments) of one call"
            )
        out["inputs"] = _plain_json(inputs)
    return out


def _plain_json(value: Any) -> Any:
    """Tuples as lists, so options travel as JSON unchanged."""
    if isinstance(value, (list, tuple)):
        return [_plain_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain_json(v) for k, v in value.items()}
    return value


def find_directive(source: str, target: str) -> dict[str, Any]:
    """The options of the ``verify(...)`` comment attached to ``target`` (empty if none)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    node = _definition(tree, target)
    if node is None:
        return {}
    lines = source.splitlines()
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]
    header_end = node.body[0].lineno - 1 if getattr(node, "body", None) else node.lineno  # type: ignore[attr-defined]
    candidates = list(range(first, max(first, header_end) + 1))
    above = first - 1
    while above >= 1 and lines[above - 1].lstrip().startswith("#"):
        candidates.append(above)
        above -= 1
    for number in candidates:
        if 1 <= number <= len(lines) and DIRECTIVE_RE.search(lines[number - 1]):
            return parse_directive(lines[number - 1], number)
    return {}
