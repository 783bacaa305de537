"""Seeded bugs: textual mutations of a real target, each a known pitfall with its catalog code.

A mutation edits the bundled module's text at test time (never a stored copy).  Each one puts
exactly one pitfall into the target and says which probe must find it, with which code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field


class NotApplicable(Exception):
    """This mutation does not fit this target."""


@dataclass(frozen=True)
class Seed:
    kind: str
    probe: str
    code: str
    # Findings the bug also causes elsewhere, right by construction (probe -> codes).
    also: dict[str, tuple[str, ...]] = field(default_factory=dict)


SEEDS = {
    "raw_variable": Seed("raw_variable", "tracking", "TFL301"),
    "layer_in_call": Seed(
        "layer_in_call", "tracking", "TFL303", also={"modes": ("TFL303", "TFL111")}
    ),
    "plain_holder": Seed("plain_holder", "tracking", "TFL304"),
    "python_counter": Seed("python_counter", "modes", "TFL104"),
    "print": Seed("print", "modes", "TFL101"),
    "numpy": Seed("numpy", "modes", "TFL102"),
    "global_counter": Seed("global_counter", "modes", "TFL103"),
    "unregistered": Seed("unregistered", "saveload", "TFL401"),
    "config_drops_arg": Seed("config_drops_arg", "saveload", "TFL403"),
}


def _find(tree: ast.Module, name: str) -> ast.ClassDef | ast.FunctionDef:
    found = None
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name:
            found = node
    if found is None:
        raise NotApplicable(f"no top-level {name}")
    return found


def _method(cls: ast.ClassDef, *names: str) -> ast.FunctionDef | None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            return node
    return None


def _body_start(function: ast.FunctionDef) -> tuple[int, str]:
    """(0-based line index where new statements go, their indentation)."""
    first = function.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and len(function.body) > 1
    ):
        first = function.body[1]
    return first.lineno - 1, " " * first.col_offset


def _after_super_init(init: ast.FunctionDef) -> tuple[int, str]:
    for statement in init.body:
        text = ast.unparse(statement)
        if "__init__(" in text and "super" in text:
            return statement.end_lineno or statement.lineno, " " * statement.col_offset
    raise NotApplicable("__init__ never calls super().__init__()")


def _insert(lines: list[str], at: int, indent: str, *statements: str) -> None:
    lines[at:at] = [indent + s for s in statements]


def _keras_alias(source: str) -> str:
    return "tf_keras" if "tf_keras" in source else "keras"


def _header(source: str, *imports: str) -> str:
    return "\n".join(imports) + "\n" + source


def _first_input(function: ast.FunctionDef) -> str:
    params = [a.arg for a in function.args.posonlyargs + function.args.args]
    if params and params[0] == "self":
        params = params[1:]
    if not params:
        raise NotApplicable("no input parameter")
    return params[0]


def mutate(source: str, name: str, kind: str) -> str:
    """``source`` with the seeded bug ``kind`` put into ``name``."""
    tree = ast.parse(source)
    target = _find(tree, name)
    lines = source.splitlines()
    alias = _keras_alias(source)
    imports = ("import tensorflow as tf", f"import {alias} as tflsp_seed_keras", "import types")
    if isinstance(target, ast.FunctionDef):
        at, indent = _body_start(target)
        if kind == "print":
            _insert(lines, at, indent, "print('tflsp seeded print')")
        elif kind == "numpy":
            _insert(lines, at, indent, f"tflsp_seed_value = {_first_input(target)}.numpy()")
        elif kind == "global_counter":
            _insert(lines, at, indent, "global tflsp_seed_count", "tflsp_seed_count += 1")
            lines.insert(target.lineno - 1 - len(target.decorator_list), "tflsp_seed_count = 0")
        else:
            raise NotApplicable(f"{kind} is for classes")
        return _header("\n".join(lines) + "\n", *imports)

    call = _method(target, "call", "__call__")
    init = _method(target, "__init__")
    if kind in ("raw_variable", "plain_holder", "python_counter") and init is None:
        raise NotApplicable("no __init__")
    if kind == "unregistered":
        if not target.decorator_list:
            raise NotApplicable("not registered")
        first = min(d.lineno for d in target.decorator_list) - 1
        del lines[first : target.lineno - 1]
        return "\n".join(lines) + "\n"
    if kind == "config_drops_arg":
        return _drop_config_argument(source, target)
    if call is None:
        raise NotApplicable("no call()")
    # Edit from the bottom up so earlier line numbers stay valid.
    edits: list[tuple[int, str, tuple[str, ...]]] = []
    at, indent = _body_start(call)
    if kind == "raw_variable":
        line, pad = _after_super_init(init)  # type: ignore[arg-type]
        edits.append((line, pad, ("self.tflsp_seed_scale = tf.Variable(1.0, name='scale')",)))
    elif kind == "layer_in_call":
        edits.append(
            (at, indent, ("tflsp_seed_extra = tflsp_seed_keras.layers.Dense(2)(tf.ones((1, 2)))",))
        )
    elif kind == "plain_holder":
        line, pad = _after_super_init(init)  # type: ignore[arg-type]
        edits.append(
            (
                line,
                pad,
                (
                    "self.tflsp_seed_holder = types.SimpleNamespace("
                    "dense=tflsp_seed_keras.layers.Dense(2))",
                ),
            )
        )
        edits.append(
            (at, indent, ("tflsp_seed_extra = self.tflsp_seed_holder.dense(tf.ones((1, 2)))",))
        )
    elif kind == "python_counter":
        line, pad = _after_super_init(init)  # type: ignore[arg-type]
        edits.append((line, pad, ("self.tflsp_seed_calls = 0",)))
        edits.append((at, indent, ("self.tflsp_seed_calls += 1",)))
    elif kind == "print":
        edits.append((at, indent, ("print('tflsp seeded print')",)))
    elif kind == "numpy":
        edits.append((at, indent, (f"tflsp_seed_value = {_first_input(call)}.numpy()",)))
    else:
        raise NotApplicable(f"{kind} is for functions")
    for line, pad, statements in sorted(edits, key=lambda e: -e[0]):
        _insert(lines, line, pad, *statements)
    return _header("\n".join(lines) + "\n", *imports)


def _drop_config_argument(source: str, cls: ast.ClassDef) -> str:
    """Remove a required constructor argument from the dict ``get_config`` returns."""
    init = _method(cls, "__init__")
    config = _method(cls, "get_config")
    if init is None or config is None:
        raise NotApplicable("no __init__ or get_config")
    args = init.args
    positional = args.posonlyargs + args.args
    defaults = len(args.defaults)
    required = {a.arg for a in positional[1 : len(positional) - defaults]}
    required |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None}
    for node in ast.walk(config):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in required:
                    return _remove_key(source, node, key)
    raise NotApplicable("get_config records no required argument in a dict literal")


def _remove_key(source: str, mapping: ast.Dict, key: ast.Constant) -> str:
    index = mapping.keys.index(key)
    kept = ast.Dict(
        keys=[k for i, k in enumerate(mapping.keys) if i != index],
        values=[v for i, v in enumerate(mapping.values) if i != index],
    )
    lines = source.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: mapping.lineno - 1]) + mapping.col_offset
    end = sum(len(line) for line in lines[: (mapping.end_lineno or 1) - 1]) + (
        mapping.end_col_offset or 0
    )
    return source[:start] + ast.unparse(kept) + source[end:]


MUTATIONS: dict[str, Callable[[str, str], str]] = {
    kind: (lambda source, name, kind=kind: mutate(source, name, kind)) for kind in SEEDS
}
