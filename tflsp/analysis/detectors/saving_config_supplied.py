"""Constructor arguments a config carries without a key of its own (for TFL403).

``cls(**config)`` gets more than the keys ``get_config`` writes: a custom ``from_config`` may
add arguments itself (placeholders, objects it rebuilds), and an argument may travel inside an
object built from it that the config stores under another argument's key.
"""

from __future__ import annotations

import ast
from typing import TypeGuard


def builds_dict(call: ast.Call) -> bool:
    """``dict(...)`` or ``d.update(...)``."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "dict"
    return isinstance(func, ast.Attribute) and func.attr == "update"


def _is_cls_call(node: ast.AST) -> TypeGuard[ast.Call]:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cls"


def supplied_by_from_config(fn: ast.FunctionDef, init: ast.FunctionDef) -> set[str]:
    """Arguments a custom ``from_config`` hands to ``cls(...)`` besides the saved config: its
    positional arguments and keywords, and the keys it stores in the dict it unpacks (it may
    rebuild a sublayer itself and pass a placeholder for what the config leaves out)."""
    positional = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
    supplied: set[str] = set()
    for call in ast.walk(fn):
        if not _is_cls_call(call):
            continue
        supplied.update(positional[: len(call.args)])
        for kw in call.keywords:
            if kw.arg is not None:
                supplied.add(kw.arg)
            else:
                supplied |= _keys_put_in(fn, kw.value, 0)
    return supplied


def _keys_put_in(fn: ast.FunctionDef, expr: ast.expr, depth: int) -> set[str]:
    """Constant keys of the dict ``expr``: a literal (with what its ``**d`` entries hold) or a
    local name ``fn`` puts keys in."""
    if depth > 3:
        return set()
    if isinstance(expr, ast.Dict):
        keys = _constant_keys(expr)
        for key, value in zip(expr.keys, expr.values, strict=True):
            if key is None:
                keys |= _keys_put_in(fn, value, depth + 1)
        return keys
    if isinstance(expr, ast.Name):
        return _keys_stored_into(fn, expr.id, depth)
    return set()


def _keys_stored_into(fn: ast.FunctionDef, name: str, depth: int) -> set[str]:
    """Constant keys ``fn`` puts in the dict ``name``: ``d = {**config, "k": ...}``,
    ``d["k"] = ...``, ``d.update(...)``, ``d.setdefault("k", ...)``."""
    keys: set[str] = set()
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ):
            keys |= _keys_put_in(fn, node.value, depth + 1)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            keys.add(node.slice.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
        ):
            if node.func.attr == "update":
                keys.update(kw.arg for kw in node.keywords if kw.arg is not None)
                for arg in node.args:
                    if isinstance(arg, ast.Dict):
                        keys.update(_constant_keys(arg))
            elif node.func.attr == "setdefault" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    keys.add(first.value)
    return keys


def _constant_keys(node: ast.Dict) -> set[str]:
    return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


# -- arguments that travel inside an object built from them ------------------------------
def carried_by_built_objects(
    cls: ast.ClassDef, init: ast.FunctionDef, get_config: ast.FunctionDef, params: set[str]
) -> set[str]:
    """Arguments whose value reaches the config inside an object built from it.

    A layer may keep a class and its options, build the sublayer from them (in ``__init__`` or
    ``build``), and store the built sublayer under the class argument's key: rebuilt from the
    config, the constructor gets the object itself and needs no options.  Only a value stored
    as is (or through a serializer) under a constructor argument counts; a number computed from
    an argument (``units * factor``) does not carry the argument back.
    """
    if not get_config.args.args:
        return set()
    this = get_config.args.args[0].arg
    stored = _config_values(get_config)
    holders = {
        attr
        for key, values in stored.items()
        if key in params
        for value in values
        for attr in _stored_attributes(value, this)
    }
    if not holders:
        return set()
    assignments = _assignments(cls)
    return {p for p in params if holders & _built_from(assignments, init, p)}


def _config_values(fn: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    """The values ``get_config`` puts under each constant key."""
    out: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    out.setdefault(key.value, []).append(value)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    out.setdefault(target.slice.value, []).append(node.value)
        elif isinstance(node, ast.Call) and builds_dict(node):
            for kw in node.keywords:
                if kw.arg is not None:
                    out.setdefault(kw.arg, []).append(kw.value)
    return out


def _stored_attributes(value: ast.expr, this: str) -> set[str]:
    """``self.x`` stored as is, or handed to a serializer: ``serialize(self.x)``."""
    candidates = value.args if isinstance(value, ast.Call) else [value]
    return {
        node.attr
        for node in candidates
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == this
    }


_Assignment = tuple[ast.FunctionDef, str, list[ast.expr], ast.expr]


def _assignments(cls: ast.ClassDef) -> list[_Assignment]:
    """``(method, self name, targets, value)`` for each assignment in the class's methods."""
    out: list[_Assignment] = []
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef) or not fn.args.args:
            continue
        this = fn.args.args[0].arg
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                out.append((fn, this, node.targets, node.value))
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                out.append((fn, this, [node.target], node.value))
    return out


def _built_from(assignments: list[_Assignment], init: ast.FunctionDef, param: str) -> set[str]:
    """Attributes of ``self`` that hold an object made by a call that reads ``param``, as is
    or through the attributes and local names it was copied into."""
    names: dict[ast.FunctionDef, set[str]] = {init: {param}}
    attrs: set[str] = set()
    built: set[str] = set()
    changed = True
    while changed:
        changed = False
        for fn, this, targets, value in assignments:
            read_names, read_attrs = _passed_on(value, this)
            if not (read_attrs & attrs or read_names & names.get(fn, set())):
                continue
            for target in targets:
                if isinstance(target, ast.Name) and target.id not in names.setdefault(fn, set()):
                    names[fn].add(target.id)
                    changed = True
                elif (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == this
                ):
                    if isinstance(value, ast.Call):
                        built.add(target.attr)
                    if target.attr not in attrs:
                        attrs.add(target.attr)
                        changed = True
    return built


def _passed_on(value: ast.expr, this: str) -> tuple[set[str], set[str]]:
    """Local names and ``self`` attributes whose object ``value`` is or is made from: copies,
    ``a or b``, containers and call arguments, not arithmetic or comparisons."""
    names: set[str] = set()
    attrs: set[str] = set()
    stack: list[ast.AST] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == this:
                attrs.add(node.attr)
            else:
                stack.append(node.value)
        elif isinstance(node, ast.Call):
            stack.extend((node.func, *node.args, *(kw.value for kw in node.keywords)))
        elif isinstance(node, ast.IfExp):
            stack.extend((node.body, node.orelse))
        elif isinstance(node, ast.BoolOp):
            stack.extend(node.values)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            stack.extend(node.elts)
        elif isinstance(node, ast.Dict):
            stack.extend(node.values)
        elif isinstance(node, (ast.Starred, ast.Subscript)):
            stack.append(node.value)
    return names, attrs


# -- arguments whose value a weight restores ---------------------------------------------
_WEIGHT_MAKERS = frozenset({"add_weight", "Variable"})


def restored_by_weights(init: ast.FunctionDef, keys: set[str], optional: set[str]) -> set[str]:
    """Optional arguments whose value only seeds a weight, in a class that rebuilds itself
    from config keys ``__init__`` pops from ``**kwargs``.

    A layer holding a vocabulary in a non-trainable weight may leave the values out of its
    config (Keras configs hold JSON, not bytes) and save the weight's shape under a key the
    constructor pops from its keyword arguments: ``cls(**config)`` makes the weight with that
    shape and loading the weights restores the values.  Both signs are needed: the popped key
    shows the config was designed for the constructor, and the argument must reach nothing
    but the weight (and tests of whether it was given).
    """
    kwargs = init.args.kwarg.arg if init.args.kwarg is not None else None
    if kwargs is None or not optional or not (_popped_keys(init, kwargs) & keys):
        return set()
    seeds = _names_seeding_weights(init)
    restored: set[str] = set()
    for name in optional:
        uses = [n for n in ast.walk(init) if isinstance(n, ast.Name) and n.id == name]
        if name in seeds and all(_seeds_or_tests(init, use, seeds) for use in uses):
            restored.add(name)
    return restored


def _popped_keys(init: ast.FunctionDef, kwargs: str) -> set[str]:
    """Constant keys ``kwargs.pop("key", ...)`` / ``kwargs.get("key")`` reads."""
    out: set[str] = set()
    for node in ast.walk(init):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("pop", "get")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == kwargs
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            out.add(node.args[0].value)
    return out


def _names_seeding_weights(init: ast.FunctionDef) -> set[str]:
    """Names read by the arguments of a weight constructor, through local assignments."""
    seeds: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and _call_name(node) in _WEIGHT_MAKERS:
            seeds.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    # Locals assigned from what seeds them seed them too (a fixpoint over plain assignments).
    changed = True
    while changed:
        changed = False
        for node in ast.walk(init):
            if not isinstance(node, ast.Assign):
                continue
            targets = {t.id for t in node.targets if isinstance(t, ast.Name)}
            if targets & seeds:
                read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
                if not read <= seeds:
                    seeds |= read
                    changed = True
    return seeds


def _seeds_or_tests(init: ast.FunctionDef, use: ast.Name, seeds: set[str]) -> bool:
    """Is this read of an argument an ``is None`` test, or inside the value of an assignment
    to a name that seeds a weight, or inside a weight constructor's arguments?"""
    for node in ast.walk(init):
        if isinstance(node, ast.Compare) and node.left is use:
            return all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
        if isinstance(node, ast.Assign) and any(n is use for n in ast.walk(node.value)):
            return all(isinstance(t, ast.Name) and t.id in seeds for t in node.targets)
        if (
            isinstance(node, ast.Call)
            and _call_name(node) in _WEIGHT_MAKERS
            and any(n is use for n in ast.walk(node))
        ):
            return True
    return False


def _call_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None
