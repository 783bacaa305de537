"""Scope and value questions shared by the graph/eager detectors (TFL1xx).

Where is a name bound, does an expression hold a tensor, a variable or a container, what does
``self.attr`` hold, and which decorators does a function carry?  Everything is answered from
one block's tree plus the module summary; per-function results are cached for the lifetime of
one block context.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tflsp.analysis.context import BlockContext
from tflsp.analysis.names import import_bindings
from tflsp.analysis.semantic import values as v

FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
ScopeNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

VARIABLE_FACTORIES = frozenset({"tensorflow.Variable", "keras.Variable"})
TF_FUNCTION = "tensorflow.function"
DO_NOT_CONVERT = "tensorflow.autograph.experimental.do_not_convert"


@dataclass
class Scope:
    """Names a function binds itself (Python's local scope rules, simplified)."""

    params: list[str]
    bound: set[str] = field(default_factory=set)
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)
    # Values assigned to plain names in this function (``x = value``), in source order.
    values: dict[str, list[ast.expr]] = field(default_factory=dict)


def cached(ctx: BlockContext) -> dict[ast.AST, object]:
    """A per-context memo keyed by AST node (each detector family uses its own node kinds)."""
    memo: dict[ast.AST, object] | None = ctx.memo.get("graph_support")
    if memo is None:
        memo = ctx.memo["graph_support"] = {}
    return memo


def _params(fn: ScopeNode) -> list[str]:
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args)]
    if a.vararg:
        names.append(a.vararg.arg)
    names.extend(p.arg for p in a.kwonlyargs)
    if a.kwarg:
        names.append(a.kwarg.arg)
    return names


def scope_of(ctx: BlockContext, fn: ScopeNode) -> Scope:
    memo = cached(ctx)
    found = memo.get(fn)
    if isinstance(found, Scope):
        return found
    scope = Scope(params=_params(fn))
    scope.bound.update(scope.params)
    body: list[ast.AST] = [fn.body] if isinstance(fn, ast.Lambda) else list(fn.body)
    stack = body
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope.bound.add(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
            continue
        if isinstance(node, ast.Global):
            scope.declared_global.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            scope.declared_nonlocal.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            scope.bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                scope.bound.add((alias.asname or alias.name).split(".", 1)[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bound.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    scope.values.setdefault(target.id, []).append(node.value)
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            scope.values.setdefault(node.target.id, []).append(node.value)
        stack.extend(ast.iter_child_nodes(node))
    scope.bound -= scope.declared_global | scope.declared_nonlocal
    memo[fn] = scope
    return scope


def enclosing_scopes(ctx: BlockContext, node: ast.AST) -> list[ScopeNode]:
    """Functions and lambdas around ``node``, innermost first (class bodies are skipped)."""
    return [s for s in ctx.index.ancestors(node) if isinstance(s, (*FUNCTION_TYPES, ast.Lambda))]


MODULE = "module"


def binding_scope(ctx: BlockContext, node: ast.AST, name: str) -> ScopeNode | str:
    """The function that binds ``name`` as seen from ``node``, or :data:`MODULE`."""
    for fn in enclosing_scopes(ctx, node):
        scope = scope_of(ctx, fn)
        if name in scope.declared_global:
            return MODULE
        if name in scope.bound:
            return fn
    return MODULE


def is_traced_scope(ctx: BlockContext, fn: ScopeNode) -> bool:
    """Does the body of ``fn`` run while a graph is traced?"""
    inner: ast.AST = fn.body if isinstance(fn, ast.Lambda) else fn.body[0]
    return ctx.in_graph(inner)


def method_self(ctx: BlockContext, node: ast.AST) -> tuple[ast.ClassDef, str] | None:
    """The class and ``self`` name of the method around ``node`` (through nested functions)."""
    for fn in ctx.index.ancestors(node):
        if isinstance(fn, FUNCTION_TYPES):
            parent = ctx.index.parent(fn)
            if isinstance(parent, ast.ClassDef):
                params = _params(fn)
                if params and not _is_static(ctx, fn):
                    return parent, params[0]
                return None
        elif isinstance(fn, ast.ClassDef):
            return None
    return None


def _is_static(ctx: BlockContext, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(ctx.resolve(d) == "builtins.staticmethod" for d in fn.decorator_list)


def self_attribute(node: ast.AST, self_name: str) -> str | None:
    """``attr`` for ``self.attr`` (exactly one level), else None."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == self_name
    ):
        return node.attr
    return None


def same_target(a: ast.AST, b: ast.AST) -> bool:
    """``self.x`` and ``self.x`` (or ``v`` and ``v``) written twice."""
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.id == b.id
    if isinstance(a, ast.Attribute) and isinstance(b, ast.Attribute):
        return a.attr == b.attr and same_target(a.value, b.value)
    return False


def mentions(expr: ast.AST, target: ast.AST) -> bool:
    return any(same_target(node, target) for node in ast.walk(expr))


def last_name(func: ast.expr) -> str | None:
    """``f`` for ``f(...)`` and ``attr`` for ``a.b.attr(...)``: a cheap filter before resolve()."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def may_come_from(ctx: BlockContext, func: ast.expr, modules: tuple[str, ...]) -> bool:
    """Could ``func`` resolve into one of ``modules`` (top-level names)?  Cheaper than resolve().

    Looks at the module-level import that binds the root name, then at the block's own
    imports (function-local ones) that bind it; a star import in the block answers True.
    """
    root = func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    target = ctx.summary.imports.get(root.id)
    if target is not None:
        return target.partition(".")[0] in modules
    own = _own_imports(ctx)
    if own is None:
        return True
    return any(t.partition(".")[0] in modules for t in own.get(root.id, ()))


def _own_imports(ctx: BlockContext) -> dict[str, list[str]] | None:
    """The names the block's own imports bind, with their targets; None after a star import.

    (A class with a few local imports would otherwise send every call of the class through
    ``resolve``: 1.5 ms a keystroke in a 400-line class.)"""
    memo = ctx.index.memo
    if "own_imports" not in memo:
        memo["own_imports"] = _bindings_of(
            [*ctx.index.nodes(ast.Import), *ctx.index.nodes(ast.ImportFrom)]
        )
    found: dict[str, list[str]] | None = memo["own_imports"]
    return found


def _bindings_of(imports: list[ast.Import | ast.ImportFrom]) -> dict[str, list[str]] | None:
    found: dict[str, list[str]] = {}
    for node in imports:
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return None
        for name, target in import_bindings(node):
            found.setdefault(name, []).append(target)
    return found


# -- values --------------------------------------------------------------------------------
def is_variable_factory(ctx: BlockContext, value: ast.AST, self_name: str | None) -> bool:
    """``tf.Variable(...)``, ``keras.Variable(...)`` or ``self.add_weight(...)``."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if (
        self_name is not None
        and isinstance(func, ast.Attribute)
        and func.attr in ("add_weight", "add_variable")
        and isinstance(func.value, ast.Name)
        and func.value.id == self_name
    ):
        return True
    return ctx.resolve(func) in VARIABLE_FACTORIES


def is_number(ctx: BlockContext, value: ast.AST) -> bool:
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
    if isinstance(value, ast.Call):
        return ctx.resolve(value.func) in ("builtins.int", "builtins.float")
    return False


_CONTAINER_LITERALS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
_CONTAINER_FACTORIES = frozenset(
    {"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray"}
)
_CONTAINER_CALL_NAMES = frozenset(
    {"list", "dict", "set", "bytearray", "deque", "defaultdict", "OrderedDict", "Counter"}
)


def is_container(ctx: BlockContext, value: ast.AST) -> bool:
    """A mutable Python container: ``[]``, ``{}``, ``list()``, ``collections.deque()``..."""
    if isinstance(value, _CONTAINER_LITERALS):
        return True
    if isinstance(value, ast.Call) and last_name(value.func) in _CONTAINER_CALL_NAMES:
        name = ctx.resolve(value.func) or ""
        return name in _CONTAINER_FACTORIES or name.startswith("collections.")
    return False


@dataclass
class AttributeOrigins:
    """What each ``self.attr`` of a class is assigned from, outside self-updates."""

    variables: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    containers: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)


def attribute_origins(ctx: BlockContext, cls: ast.ClassDef) -> AttributeOrigins:
    memo = cached(ctx)
    table = memo.get(_ORIGINS_KEY)
    if not isinstance(table, dict):
        table = _collect_origins(ctx)
        memo[_ORIGINS_KEY] = table
    return table.get(cls) or AttributeOrigins()


_ORIGINS_KEY = ast.Pass()  # memo slot for the block's attribute table (a node no tree contains)


def _collect_origins(ctx: BlockContext) -> dict[ast.ClassDef, AttributeOrigins]:
    """``self.attr = value`` assignments of every class in the block, in one pass."""
    table: dict[ast.ClassDef, AttributeOrigins] = {}
    statements: list[ast.Assign | ast.AnnAssign] = [
        *ctx.index.nodes(ast.Assign),
        *ctx.index.nodes(ast.AnnAssign),
    ]
    for node in statements:
        value = node.value
        if value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) for t in targets):
            continue
        owner = method_self(ctx, node)
        if owner is None:
            continue
        cls, self_name = owner
        for target in targets:
            attr = self_attribute(target, self_name)
            if attr is None or mentions(value, target):
                continue
            origins = table.setdefault(cls, AttributeOrigins())
            if is_variable_factory(ctx, value, self_name):
                origins.variables.add(attr)
            elif is_number(ctx, value):
                origins.numbers.add(attr)
            elif is_container(ctx, value):
                origins.containers.add(attr)
            else:
                origins.others.add(attr)
    return table


def name_values(ctx: BlockContext, node: ast.AST, name: str) -> list[ast.expr] | None:
    """Values assigned to ``name`` in the function that binds it (None: bound at module level)."""
    where = binding_scope(ctx, node, name)
    if where == MODULE or isinstance(where, str):
        return None
    return scope_of(ctx, where).values.get(name, [])


def may_be_container(ctx: BlockContext, expr: ast.expr) -> bool:
    """False when everything ``expr`` may hold is known and none of it is a container.

    ``self.cache.setdefault(...)`` on a custom cache object, or ``log.update(...)`` on a name
    assigned from ``Logger()``, is not a Python container mutation.  Unknown values count as
    containers (the mutation itself says so).
    """
    values = ctx.value(expr)
    if v.is_unknown(values):
        return True
    return v.any_of(values, _is_container_value)


def _is_container_value(value: v.Value) -> bool:
    return value.kind in v.CONTAINERS or (
        value.kind == v.FOREIGN and value.ref.startswith(("collections.", "builtins."))
    )


def value_before(ctx: BlockContext, node: ast.AST, name: str) -> v.Values:
    """What ``name`` holds when the statement ``node`` (or the name ``node``) runs."""
    if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
        return ctx.value(node)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        reach = ctx.semantics.flow.before.get(node.target)
        if reach is not None:
            term = ctx.semantics.terms.reach_terms(reach, name, node.target)
            return ctx.model.value(term, ctx.ordinal)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load):
            return ctx.value(sub)
    return v.UNKNOWN_SET


def holds_variable(ctx: BlockContext, node: ast.AST, name: str) -> bool:
    """``name`` may hold a tf.Variable or keras.Variable where ``node`` reads it (and nothing
    unknown): updating it with an operator replaces a variable."""
    values = value_before(ctx, node, name)
    return not v.is_unknown(values) and v.any_of(
        values, lambda x: x.kind in (v.VARIABLE, v.KERAS_VARIABLE)
    )


def is_tensor_expr(ctx: BlockContext, expr: ast.AST) -> bool:
    """Does ``expr`` surely evaluate to a tensor (not a Python value)?  An operator on a
    tensor gives a tensor, whatever the other operand."""
    if isinstance(expr, ast.BinOp):
        return is_tensor_expr(ctx, expr.left) or is_tensor_expr(ctx, expr.right)
    if isinstance(expr, ast.UnaryOp):
        return is_tensor_expr(ctx, expr.operand)
    if isinstance(expr, ast.Compare):
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
            return False
        return any(is_tensor_expr(ctx, e) for e in (expr.left, *expr.comparators))
    if isinstance(expr, ast.BoolOp):
        return any(is_tensor_expr(ctx, value) for value in expr.values)
    if isinstance(expr, ast.Subscript):
        return is_tensor_expr(ctx, expr.value)
    if isinstance(expr, (ast.Name, ast.Call, ast.Attribute)):
        return v.all_of(ctx.value(expr), lambda x: x.kind == v.TENSOR)
    return False


# -- AutoGraph -----------------------------------------------------------------------------
def decorator_call_keyword(
    ctx: BlockContext, fn: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str, keyword: str
) -> ast.expr | None:
    """The value of ``keyword`` in a ``@qualname(..., keyword=...)`` decorator of ``fn``."""
    for deco in fn.decorator_list:
        if isinstance(deco, ast.Call) and ctx.resolve(deco.func) == qualname:
            kw = ctx.keyword(deco, keyword)
            if kw is not None:
                return kw.value
    return None


def has_decorator(ctx: BlockContext, fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    for deco in fn.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if ctx.resolve(target) == name:
            return True
    return False
