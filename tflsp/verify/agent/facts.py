"""What the source says about how a class or function is meant to be built and called.

Read from the syntax tree only (no TensorFlow): for every constructor parameter, how
``__init__`` uses it (passed on to another constructor, unpacked, indexed, iterated); for the
call method, how ``build`` reads the input shape and which sub-layer first sees the input; and
the file's own uses of the target (``Cls(64, rate=0.1)``, ``keras.Input(shape=(28, 28, 1))``
fed to it, ``model.build((None, 10))``, ``f(tf.zeros([2, 3]))``).  :mod:`.inputs` turns these
into constructor arguments and sample inputs.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ParamUse:
    """How one parameter is used in the body that receives it."""

    # (callee source text, keyword name or positional index) for every call it is passed to
    passed_to: list[tuple[str, str | int]] = field(default_factory=list)
    unpacked: int = 0  # a, b, c = param
    max_index: int = -1  # param[2] -> 2
    iterated: bool = False  # for x in param / len(param) / list(param)
    called: bool = False  # param(...)
    attribute_calls: set[str] = field(default_factory=set)  # param.shape, param.numpy()...
    strings: list[str] = field(default_factory=list)  # param == "same" -> ["same"]
    arithmetic: bool = False  # param * 2, param // 4
    range_arg: bool = False  # range(param) / tf.range(param)
    divides: set[str] = field(default_factory=set)  # other params it divides (x // heads)


@dataclass
class Facts:
    params: dict[str, ParamUse] = field(default_factory=dict)
    # literal calls of the target found in the file: (positional values, keyword values)
    file_calls: list[tuple[list[Any], dict[str, Any]]] = field(default_factory=list)
    # shapes the file feeds to the target or builds it with (batch axis included; None allowed)
    file_shapes: list[list[tuple[int | None, ...]]] = field(default_factory=list)
    # build(input_shape): largest index read (input_shape[3] -> rank >= 4), -1: unknown
    build_max_index: int = -1
    build_negative: bool = False  # input_shape[-1] read: rank >= 1 beyond the batch
    # sub-layer attribute that first receives the input, and the constructor call making it
    first_layer: str | None = None
    docstring: str = ""
    # how call()/__call__ uses its own parameters (following self._helper(param) one level)
    call_params: dict[str, ParamUse] = field(default_factory=dict)
    # module-level image sizes (IMG_HEIGHT = 256): the file's own idea of an image
    image_size: tuple[int, int] | None = None


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def find_definition(tree: ast.Module, dotted: str) -> ast.AST | None:
    scope: list[ast.stmt] = tree.body
    found: ast.AST | None = None
    for part in dotted.split("."):
        found = None
        for node in scope:
            if (
                isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and node.name == part
            ):
                found = node  # the last definition wins, as at run time
        if found is None:
            return None
        scope = getattr(found, "body", [])
    return found


def method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def _name_of(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def param_uses(function: ast.FunctionDef) -> dict[str, ParamUse]:
    """How each parameter of ``function`` is used in its body (``self.x = x`` aliases too)."""
    names = [
        a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs
    ]
    uses = {name: ParamUse() for name in names if name != "self"}
    # self.units = units: later self.units uses count as uses of units (also in other methods
    # the caller merges).
    aliases: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and node.value.id in uses
                ):
                    aliases[f"self.{target.attr}"] = node.value.id
    _collect(function, uses, aliases)
    return uses


def _param_of(node: ast.AST, uses: dict[str, ParamUse], aliases: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name) and node.id in uses:
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return aliases.get(f"{node.value.id}.{node.attr}")
    return None


def _collect(root: ast.AST, uses: dict[str, ParamUse], aliases: dict[str, str]) -> None:
    for node in ast.walk(root):
        if isinstance(node, ast.Call):
            callee = ast.unparse(node.func)
            for index, arg in enumerate(node.args):
                name = _param_of(arg, uses, aliases)
                if name:
                    uses[name].passed_to.append((callee, index))
                    if callee in ("len", "list", "tuple", "enumerate", "zip", "sum"):
                        uses[name].iterated = True
                    if callee.endswith("range"):
                        uses[name].range_arg = True
            for keyword in node.keywords:
                name = _param_of(keyword.value, uses, aliases)
                if name and keyword.arg:
                    uses[name].passed_to.append((callee, keyword.arg))
            name = _param_of(node.func, uses, aliases)
            if name:
                uses[name].called = True
            if isinstance(node.func, ast.Attribute):
                owner = _param_of(node.func.value, uses, aliases)
                if owner:
                    uses[owner].attribute_calls.add(node.func.attr)
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], (ast.Tuple, ast.List)):
            name = _param_of(node.value, uses, aliases)
            if name:
                uses[name].unpacked = max(uses[name].unpacked, len(node.targets[0].elts))
        elif isinstance(node, ast.Subscript):
            name = _param_of(node.value, uses, aliases)
            if name:
                key = node.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, int):
                    uses[name].max_index = max(uses[name].max_index, key.value)
                else:
                    uses[name].max_index = max(uses[name].max_index, 0)
        elif isinstance(node, ast.For):
            name = _param_of(node.iter, uses, aliases)
            if name:
                uses[name].iterated = True
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            texts = [
                o.value
                for o in operands
                if isinstance(o, ast.Constant) and isinstance(o.value, str)
            ]
            for comparator in node.comparators:
                if isinstance(comparator, (ast.Tuple, ast.List, ast.Set)):
                    texts += [
                        e.value
                        for e in comparator.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
            if texts:
                for operand in operands:
                    name = _param_of(operand, uses, aliases)
                    if name:
                        uses[name].strings.extend(texts)
        elif isinstance(node, ast.BinOp):
            left = _param_of(node.left, uses, aliases)
            right = _param_of(node.right, uses, aliases)
            for name in (left, right):
                if name:
                    uses[name].arithmetic = True
            if left and right and isinstance(node.op, (ast.FloorDiv, ast.Div, ast.Mod)):
                uses[right].divides.add(left)


def _literal(node: ast.AST, constants: dict[str, Any]) -> Any:
    """A literal value, resolving module-level constant names; raises ValueError otherwise."""
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        values = [_literal(e, constants) for e in node.elts]
        return tuple(values) if isinstance(node, ast.Tuple) else values
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_literal(node.operand, constants)
    return ast.literal_eval(node)


def module_constants(tree: ast.Module) -> dict[str, Any]:
    """Top-level ``NAME = literal`` assignments (the last one wins)."""
    constants: dict[str, Any] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            try:
                constants[node.targets[0].id] = _literal(node.value, constants)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                constants.pop(node.targets[0].id, None)
    return constants


def _callee_is(node: ast.Call, name: str) -> bool:
    func = node.func
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


_SHAPE_MAKERS = {"zeros", "ones", "normal", "uniform", "rand", "randn", "random", "fill", "empty"}


def _shape_of_expression(
    node: ast.AST, constants: dict[str, Any], shapes: dict[str, tuple]
) -> tuple | None:
    """The shape a tensor-making expression has: ``tf.zeros([2, 3])``, ``keras.Input(shape=(3,))``,
    ``np.random.rand(2, 3)``, a name bound to one of those."""
    if isinstance(node, ast.Name):
        return shapes.get(node.id)
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    try:
        if called == "Input":
            shape = next((k.value for k in node.keywords if k.arg == "shape"), None)
            if shape is None and node.args:
                shape = node.args[0]
            if shape is None:
                return None
            batch = next((k.value for k in node.keywords if k.arg == "batch_size"), None)
            value = _literal(shape, constants)
            return (_literal(batch, constants) if batch is not None else None, *tuple(value))
        if called in _SHAPE_MAKERS:
            if called in ("rand", "randn") and node.args:
                return tuple(_literal(a, constants) for a in node.args)
            shape_node = next((k.value for k in node.keywords if k.arg in ("shape", "size")), None)
            if shape_node is None and node.args:
                shape_node = node.args[0]
            if shape_node is None:
                return None
            value = _literal(shape_node, constants)
            return tuple(value) if isinstance(value, (list, tuple)) else (value,)
        if called == "constant" and node.args:
            value = _literal(node.args[0], constants)
            return _nested_shape(value)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    return None


def _nested_shape(value: Any) -> tuple | None:
    if isinstance(value, (int, float)):
        return ()
    if isinstance(value, (list, tuple)) and value:
        inner = _nested_shape(value[0])
        return None if inner is None else (len(value), *inner)
    return None


def _file_uses(tree: ast.Module, name: str, facts: Facts, function: bool = False) -> None:
    """Literal constructor calls of ``name``, and shapes fed to its instances."""
    constants = module_constants(tree)
    shapes: dict[str, tuple] = {}
    instances: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            target = node.targets[0].id
            shape = _shape_of_expression(node.value, constants, shapes)
            if shape is not None:
                shapes[target] = shape
            if isinstance(node.value, ast.Call) and _callee_is(node.value, name):
                instances.add(target)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if function and _callee_is(node, name) and node.args:
            # f(tf.zeros([2, 3]), labels): the shapes a function is called with
            fed = [_shape_of_expression(a, constants, shapes) for a in node.args]
            if all(s is not None for s in fed) and not node.keywords:
                facts.file_shapes.append([tuple(s) for s in fed if s is not None])
            continue
        if _callee_is(node, name):
            try:
                args = [_literal(a, constants) for a in node.args if not isinstance(a, ast.Starred)]
                kwargs = {k.arg: _literal(k.value, constants) for k in node.keywords if k.arg}
            except (ValueError, TypeError, SyntaxError, RecursionError):
                args, kwargs = [], {}
                usable = False
            else:
                usable = len(args) == len(node.args) and len(kwargs) == len(node.keywords)
            if usable:
                facts.file_calls.append((args, kwargs))
        func = node.func
        # instance(x) / Cls(...)(x) / instance.build(shape)
        receiver = None
        if (isinstance(func, ast.Name) and func.id in instances) or (
            isinstance(func, ast.Call) and _callee_is(func, name)
        ):
            receiver = "call"
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in instances
            and func.attr in ("build", "fit", "predict", "__call__", "call")
        ):
            receiver = func.attr
        if receiver is None:
            continue
        if receiver == "build" and node.args:
            try:
                value = _literal(node.args[0], constants)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
            if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
                facts.file_shapes.append([tuple(v) for v in value])
            elif isinstance(value, (list, tuple)):
                facts.file_shapes.append([tuple(value)])
            continue
        fed = [_shape_of_expression(a, constants, shapes) for a in node.args[:4]]
        if receiver == "fit":
            fed = fed[:1]
        if fed and all(s is not None for s in fed):
            facts.file_shapes.append([tuple(s) for s in fed if s is not None])


def _docstring(node: ast.AST) -> str:
    try:
        return ast.get_docstring(node) or ""  # type: ignore[arg-type]
    except TypeError:
        return ""


def class_facts(source: str, name: str) -> Facts:
    facts = Facts()
    tree = _parse(source)
    if tree is None:
        return facts
    node = find_definition(tree, name)
    if not isinstance(node, ast.ClassDef):
        return facts
    init = method(node, "__init__")
    facts.docstring = "\n".join(filter(None, [_docstring(node), _docstring(init) if init else ""]))
    if init is not None:
        facts.params = param_uses(init)
        # self.x = x in __init__, used in build/call: follow the alias into those methods.
        aliases = {}
        for sub in ast.walk(init):
            if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Name):
                for target in sub.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                        and sub.value.id in facts.params
                    ):
                        aliases[f"self.{target.attr}"] = sub.value.id
        for other in node.body:
            if isinstance(other, ast.FunctionDef) and other.name != "__init__":
                _collect(other, facts.params, aliases)
    build = method(node, "build")
    if build is not None and len(build.args.args) > 1:
        shape_name = build.args.args[1].arg
        for sub in ast.walk(build):
            if (
                isinstance(sub, ast.Subscript)
                and isinstance(sub.value, ast.Name)
                and sub.value.id == shape_name
            ):
                index = sub.slice
                if isinstance(index, ast.Constant) and isinstance(index.value, int):
                    if index.value >= 0:
                        facts.build_max_index = max(facts.build_max_index, index.value)
                    else:
                        facts.build_negative = True
                elif isinstance(index, ast.UnaryOp):
                    facts.build_negative = True
    call = method(node, "call") or method(node, "__call__")
    if call is not None:
        facts.call_params = param_uses(call)
        _follow_helpers(node, call, facts.call_params)
    if call is not None and len(call.args.args) > 1 and init is not None:
        first = call.args.args[1].arg
        made = {
            f"self.{t.attr}": ast.unparse(sub.value.func)
            for sub in ast.walk(init)
            if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call)
            for t in sub.targets
            if isinstance(t, ast.Attribute)
            and isinstance(t.value, ast.Name)
            and t.value.id == "self"
        }
        for sub in ast.walk(call):
            if (
                isinstance(sub, ast.Call)
                and sub.args
                and isinstance(sub.args[0], ast.Name)
                and sub.args[0].id == first
            ):
                callee = ast.unparse(sub.func)
                if callee in made:
                    facts.first_layer = made[callee]
                break
    _file_uses(tree, name, facts)
    facts.image_size = image_size(tree)
    return facts


def _follow_helpers(
    cls: ast.ClassDef, function: ast.FunctionDef, uses: dict[str, ParamUse]
) -> None:
    """``self._stack(inputs)`` in call(): how ``_stack`` uses that parameter counts too."""
    for callee, where in [(c, w) for use in uses.values() for c, w in use.passed_to]:
        if not callee.startswith("self.") or not isinstance(where, int):
            continue
        helper = method(cls, callee[5:])
        if helper is None or helper is function:
            continue
        helper_uses = param_uses(helper)
        names = [a.arg for a in helper.args.args if a.arg != "self"]
        if where >= len(names):
            continue
        for use in uses.values():
            if (callee, where) in use.passed_to:
                inner = helper_uses.get(names[where])
                if inner is not None:
                    use.attribute_calls |= inner.attribute_calls
                    use.iterated = use.iterated or inner.iterated
                    use.max_index = max(use.max_index, inner.max_index)


_IMAGE_SIZE_RE = re.compile(r"^(IMG|IMAGE)_?(SIZE|HEIGHT|WIDTH|H|W|DIM)$|^(HEIGHT|WIDTH)$", re.I)


def image_size(tree: ast.Module) -> tuple[int, int] | None:
    """(height, width) from module constants such as ``IMG_HEIGHT = 256`` or ``IMG_SIZE = 28``."""
    height = width = None
    for name, value in module_constants(tree).items():
        if not _IMAGE_SIZE_RE.match(name):
            continue
        upper = name.upper()
        if (
            isinstance(value, (tuple, list))
            and len(value) >= 2
            and all(isinstance(v, int) for v in value[:2])
        ):
            height, width = value[0], value[1]
        elif isinstance(value, int) and 1 < value <= 1024:
            if "WIDTH" in upper or upper.endswith("_W"):
                width = value
            elif "HEIGHT" in upper or upper.endswith("_H"):
                height = value
            else:
                height, width = value, value
    if height or width:
        return (height or width, width or height)  # type: ignore[return-value]
    return None


def function_facts(source: str, name: str) -> Facts:
    facts = Facts()
    tree = _parse(source)
    if tree is None:
        return facts
    node = find_definition(tree, name)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return facts
    facts.docstring = _docstring(node)
    facts.params = param_uses(node)  # type: ignore[arg-type]
    facts.call_params = facts.params
    _file_uses(tree, name.split(".")[-1], facts, function=True)
    facts.image_size = image_size(tree)
    return facts


# -- docstrings --------------------------------------------------------------------------------
_DOC_TYPE_RE = re.compile(
    r"^[ \t]*`?(?P<name>\w+)`?[ \t]*(?:\((?P<paren>[^)]*)\))?[ \t]*:[ \t]*(?P<rest>.*)$",
    re.MULTILINE,
)
_DOC_SHAPE_RE = re.compile(r"shape\s*`?[\[(]([^\])]*)[\])]", re.IGNORECASE)


def doc_entry(doc: str, name: str) -> str:
    """The text documenting parameter ``name`` (Google/NumPy style), or ``""``."""
    for match in _DOC_TYPE_RE.finditer(doc):
        if match.group("name") == name:
            start = match.start("rest")
            # the entry runs until the next "name:" line at the same or a smaller indent
            following = doc[start:].split("\n")
            lines = [following[0]]
            for line in following[1:]:
                if _DOC_TYPE_RE.match(line) or not line.strip():
                    break
                lines.append(line.strip())
            paren = match.group("paren") or ""
            return f"{paren} {' '.join(lines)}".strip()
    return ""


def doc_rank(text: str) -> int | None:
    """``of shape (batch_size, seq_len, dim)`` -> 3."""
    match = _DOC_SHAPE_RE.search(text)
    if not match:
        return None
    parts = [p for p in match.group(1).split(",") if p.strip()]
    return len(parts) or None
