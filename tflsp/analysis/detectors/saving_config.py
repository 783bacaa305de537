"""Save/load family, part 2: ``get_config()`` of custom layers and models (TFL402, TFL403).

Keras rebuilds a saved layer with ``cls(**layer.get_config())``.  Without an override, Keras
records the constructor arguments itself, but only for plain values (str, int, float, bool,
None and lists/dicts of them), and on Keras 3 not at all for ``Model`` subclasses (their
``__new__`` drops the arguments).  With an override, every argument the override leaves out is
silently replaced by its default, or is missing, at load time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.saving import (
    class_name_span,
    class_saving,
    is_local_base,
    is_registered,
    registers_by_hand,
)
from tflsp.analysis.detectors.saving_config_supplied import (
    builds_dict,
    carried_by_built_objects,
    restored_by_weights,
    supplied_by_from_config,
)
from tflsp.analysis.names import dotted, super_call
from tflsp.analysis.registry import detector

# Constructor arguments that ``Layer.get_config`` already records (or that Keras drops).
STANDARD_ARGUMENTS = frozenset(
    {
        "name",
        "dtype",
        "trainable",
        "dynamic",
        "autocast",
        "input_shape",
        "batch_input_shape",
        "input_dim",
        "batch_size",
        "weights",
        "activity_regularizer",
    }
)
_BASIC_TYPE_NAMES = frozenset(
    {
        "int",
        "float",
        "str",
        "bool",
        "None",
        "list",
        "tuple",
        "dict",
        "List",
        "Tuple",
        "Dict",
        "Sequence",
        "Mapping",
        "Optional",
        "Union",
        "Literal",
        "Any",
    }
)
# Methods of str/list/dict values: calling them says nothing about a non-basic argument.
_VALUE_METHODS = frozenset(
    {
        "lower",
        "upper",
        "strip",
        "split",
        "startswith",
        "endswith",
        "replace",
        "format",
        "join",
        "get",
        "items",
        "keys",
        "values",
        "copy",
        "count",
        "index",
        "append",
        "real",
    }
)
_PLAIN_BASES = frozenset({"keras.Layer", "keras.Model"})
_SERIALIZING_CALLS = (
    ".get_config",
    ".to_json",
    "keras.models.clone_model",
    "keras.saving.serialize_keras_object",
)


@dataclass(frozen=True, slots=True)
class InitParam:
    name: str
    required: bool
    default: ast.expr | None
    annotation: ast.expr | None


def method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt
    return None


def init_params(init: ast.FunctionDef) -> list[InitParam]:
    """Named constructor parameters after ``self`` (``*args``/``**kwargs`` left out)."""
    a = init.args
    positional = [*a.posonlyargs, *a.args][1:]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults))
    defaults.extend(a.defaults)
    params = [
        InitParam(arg.arg, default is None, default, arg.annotation)
        for arg, default in zip(positional, defaults, strict=True)
    ]
    params.extend(
        InitParam(arg.arg, default is None, default, arg.annotation)
        for arg, default in zip(a.kwonlyargs, a.kw_defaults, strict=True)
    )
    return [p for p in params if p.name not in STANDARD_ARGUMENTS]


# -- TFL402 missing-get-config ---------------------------------------------------------------
@detector("TFL402")
def missing_get_config(ctx: BlockContext) -> None:
    for cls, kind in ctx.keras_classes():
        if kind not in ("layer", "model"):
            continue
        init = method(cls, "__init__")
        if init is None or _inherits_get_config(ctx, cls) or not _plain_bases(ctx, cls):
            continue
        if is_local_base(ctx, cls):
            continue  # serialized through its subclasses, which TFL402/TFL403 check
        info = class_saving(ctx, cls)
        if not (info.saved or info.serialized or is_registered(ctx, cls)):
            continue  # nothing saves or serializes an object holding it
        params = init_params(init)
        if not params:
            continue
        non_basic = [p.name for p in params if _non_basic(cls, init, p)]
        if non_basic:
            variant = "non_basic"
        elif ctx.keras_version == 3 and kind == "model":
            variant = "model_required" if any(p.required for p in params) else "model_default"
        else:
            continue
        names = non_basic or [p.name for p in params]
        ctx.report(
            "TFL402",
            class_name_span(ctx, cls),
            message=variant,
            args={"cls": cls.name, "args": _quoted(names)},
        )


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _plain_bases(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """Bases are keras.Layer/keras.Model or local classes (not Dense, Sequential, ...)."""
    for base in cls.bases:
        text = ctx.resolve(base)
        name = base.id if isinstance(base, ast.Name) else None
        if text in _PLAIN_BASES or (name is not None and _local_class(ctx, name) is not None):
            continue
        return False
    return True


def _local_class(ctx: BlockContext, name: str) -> str | None:
    """The id of a module-level class of this module named ``name``."""
    return name if name in ctx.summary.classes else None


def _inherits_get_config(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """``cls`` or one of its module-level local bases defines get_config()."""
    if method(cls, "get_config") is not None:
        return True
    seen: set[str] = set()
    pending = [b.rpartition(".")[2] for b in (dotted(base) for base in cls.bases) if b]
    while pending:
        class_id = _local_class(ctx, pending.pop())
        if class_id is None or class_id in seen:
            continue
        seen.add(class_id)
        facts = ctx.summary.classes[class_id]
        if "get_config" in facts.methods:
            return True
        pending.extend(b.rpartition(".")[2] for b in facts.bases)
    return False


def _non_basic(cls: ast.ClassDef, init: ast.FunctionDef, param: InitParam) -> bool:
    """Is the argument probably an object Keras cannot record by itself (a layer, a function)?"""
    if param.annotation is not None and not _basic_annotation(param.annotation):
        return True
    if param.default is not None and not _literal(param.default):
        return True
    stored = _stored_as(init, param.name)
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == param.name:
                return True
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == param.name
            and node.attr not in _VALUE_METHODS
        ):
            return True
    if not stored:
        return False
    for node in ast.walk(cls):
        target = node.func if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            target = node.value if node.attr not in _VALUE_METHODS else None
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
            and target.attr in stored
        ):
            return True
    return False


def _stored_as(init: ast.FunctionDef, name: str) -> set[str]:
    """Attributes that ``__init__`` sets straight from a parameter: ``self.x = name``."""
    out: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            if node.value.id != name:
                continue
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                ):
                    out.add(target.attr)
    return out


def _basic_annotation(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)  # None, or a string annotation
    if isinstance(node, ast.Name):
        return node.id in _BASIC_TYPE_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in _BASIC_TYPE_NAMES
    if isinstance(node, ast.Subscript):
        inner = node.slice
        parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        return _basic_annotation(node.value) and all(
            _basic_annotation(p) or isinstance(p, ast.Constant) for p in parts
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _basic_annotation(node.left) and _basic_annotation(node.right)
    return False


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _literal(node.operand)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) for k in node.keys) and all(
            _literal(v) for v in node.values
        )
    return False


# -- TFL403 get-config-missing-args ----------------------------------------------------------
@detector("TFL403")
def get_config_missing_args(ctx: BlockContext) -> None:
    for cls, kind in ctx.keras_classes():
        if kind not in ("layer", "model"):
            continue
        get_config = method(cls, "get_config")
        init = method(cls, "__init__")
        if get_config is None or init is None:
            continue
        if not any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(get_config)):
            continue  # it only raises: saving this class is refused on purpose
        keys = _config_keys(get_config)
        if keys is None:
            continue  # built in a way we cannot read
        from_config = method(cls, "from_config")
        if from_config is not None:
            if not _rebuilds_from_config(from_config):
                continue
            keys |= supplied_by_from_config(from_config, init)
        uses_super = _calls_super_get_config(get_config)
        forwarded = _forwarded_to_super(init)
        used = {
            n.id for n in ast.walk(init) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        params = init_params(init)
        missing = [
            p.name
            for p in params
            if p.name not in keys
            and (p.required or p.name in used)
            and not (uses_super and p.name in forwarded)
        ]
        if missing:
            carried = carried_by_built_objects(cls, init, get_config, {p.name for p in params})
            optional = {p.name for p in params if not p.required}
            carried |= restored_by_weights(init, keys, optional)
            missing = [name for name in missing if name not in carried]
        if missing and _config_is_used(ctx, cls):
            ctx.report(
                "TFL403",
                class_name_span(ctx, get_config),
                args={"cls": cls.name, "args": _quoted(missing)},
            )


def _config_is_used(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """Does the code show that Keras will rebuild ``cls`` from its config?

    Registered classes are meant to be rebuilt from their config, and so are classes an object
    reaching a Keras save or load contains.  Otherwise it is unknown: a layer of a library is
    often only ever rebuilt by its owner's constructor (keras-hub's backbones save their own
    arguments, never their layers' configs), and the save, if any, is in another file.
    """
    if is_registered(ctx, cls) or registers_by_hand(ctx):
        return True
    info = class_saving(ctx, cls)
    return bool(info.saved) or info.loaded


def _is_super_get_config(node: ast.AST) -> bool:
    return super_call(node, "get_config") is not None


def _calls_super_get_config(fn: ast.FunctionDef) -> bool:
    return any(_is_super_get_config(n) for n in ast.walk(fn))


def _config_keys(fn: ast.FunctionDef) -> set[str] | None:
    """Keys ``get_config`` puts in its dict, or None when the dict is built opaquely."""
    known = _dict_names(fn)
    keys: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is None:
                    if not _only_known(value, known):
                        return None
                elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                    keys.add(key.value)
                else:
                    return None
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                keys.add(node.slice.value)
            else:
                return None
        elif isinstance(node, ast.Call) and builds_dict(node):
            for kw in node.keywords:
                if kw.arg is None:
                    if not _only_known(kw.value, known):
                        return None
                else:
                    keys.add(kw.arg)
            if not all(_only_known(arg, known) for arg in node.args):
                return None
        elif (
            isinstance(node, ast.Return)
            and node.value is not None
            and not isinstance(node.value, ast.Dict)
            and not _only_known(node.value, known)
        ):
            return None
    return keys


def _dict_names(fn: ast.FunctionDef) -> set[str]:
    """Local names that hold a dict we can read (literal, dict(...), super().get_config())."""
    names: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            value = node.value
            readable = isinstance(value, ast.Dict) or any(
                _is_super_get_config(n) for n in ast.walk(value)
            )
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                readable = readable or value.func.id == "dict"
            if isinstance(target, ast.Name) and readable:
                names.add(target.id)
    return names


def _only_known(expr: ast.expr, known: set[str]) -> bool:
    """Only readable dicts, super().get_config() and list()/items() plumbing in ``expr``."""
    if _is_super_get_config(expr) or isinstance(expr, ast.Dict):
        return True
    for node in _walk_without_calls_to_super(expr):
        if isinstance(node, ast.Name) and node.id not in known and node.id not in ("list", "dict"):
            return False
    return True


def _walk_without_calls_to_super(expr: ast.AST) -> Iterator[ast.AST]:
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        if _is_super_get_config(node) or isinstance(node, ast.Dict):
            continue
        yield node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            stack.append(node.func.value)  # ``config.items()``: look at ``config`` only
            stack.extend(node.args)
        else:
            stack.extend(ast.iter_child_nodes(node))


def _rebuilds_from_config(fn: ast.FunctionDef) -> bool:
    """``from_config`` ends in ``cls(**config)``: the keys must match the arguments."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "cls"
        and any(kw.arg is None for kw in n.keywords)
        for n in ast.walk(fn)
    )


def _forwarded_to_super(init: ast.FunctionDef) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(init):
        if (call := super_call(node, "__init__")) is not None:
            for arg in [*call.args, *(kw.value for kw in call.keywords)]:
                if isinstance(arg, ast.Name):
                    out.add(arg.id)
    return out
