"""Graph/eager family (TFL1xx): Python that runs only while TensorFlow traces a graph.

State, variables and tensors are in :mod:`graph_state`; tracing and eager switches in
:mod:`graph_tracing`.
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import (
    DO_NOT_CONVERT,
    MODULE,
    TF_FUNCTION,
    binding_scope,
    decorator_call_keyword,
    enclosing_scopes,
    has_decorator,
    holds_variable,
    is_tensor_expr,
    is_traced_scope,
    is_variable_factory,
    last_name,
    may_be_container,
    may_come_from,
    mentions,
    method_self,
    same_target,
    scope_of,
)
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.registry import detector, watch


@detector("TFL101")
def print_in_graph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # graph code is in functions
    for call in calls_of(ctx, functions=("print",)):
        if ctx.resolve(call.func) != "builtins.print" or not ctx.in_graph(call):
            continue
        if _converts_builtins(ctx, call):
            continue  # AutoGraph turns this print() into tf.print()
        fix = None
        tf_name = ctx.alias_for("tensorflow")
        if tf_name and not any(kw.arg in ("file", "flush") for kw in call.keywords):
            fix = ctx.fix(ctx.replace(call.func, f"{tf_name}.print"), safe=True)
        ctx.report("TFL101", call, args={"function": ctx.graph_function_name(call)}, fix=fix)


def _converts_builtins(ctx: BlockContext, node: ast.AST) -> bool:
    """``@tf.function(experimental_autograph_options=Feature.BUILTIN_FUNCTIONS)`` (or ``ALL``)
    around ``node``: AutoGraph converts print() and other builtins to TensorFlow ops."""
    for scope in ctx.index.ancestors(node):
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        option = decorator_call_keyword(ctx, scope, TF_FUNCTION, "experimental_autograph_options")
        if option is not None and any(
            isinstance(n, ast.Attribute) and n.attr in ("BUILTIN_FUNCTIONS", "ALL")
            for n in ast.walk(option)
        ):
            return True
    return False


@detector("TFL102")
def numpy_in_graph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return
    for call in calls_of(ctx, methods=("numpy",)):
        func = call.func
        if call.args or not isinstance(func, ast.Attribute):
            continue
        if ctx.in_graph(call):
            span = ctx.attribute_span(func, end=call)
            ctx.report("TFL102", span, args={"function": ctx.graph_function_name(call)})


# -- TFL103: Python side effects that happen only while tracing ---------------------------
# Methods that mutate a Python list, dict, set or deque in place.
_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "clear",
        "update",
        "add",
        "discard",
        "setdefault",
        "popitem",
        "appendleft",
        "extendleft",
        "sort",
        "reverse",
    }
)
_FILE_WRITERS = frozenset(
    {
        "builtins.open",
        "numpy.save",
        "numpy.savez",
        "numpy.savetxt",
        "json.dump",
        "pickle.dump",
    }
)
_FILE_WRITER_NAMES = frozenset(name.rpartition(".")[2] for name in _FILE_WRITERS)
_SIDE_EFFECT_METHODS = _MUTATORS | _FILE_WRITER_NAMES


def _outside_root(ctx: BlockContext, receiver: ast.expr) -> str | None:
    """The name of a Python object that outlives one trace, mutated through ``receiver``.

    ``self.items`` (state on the object), module globals and variables of an eagerly running
    enclosing function qualify; lists built inside the traced function itself do not.
    """
    node: ast.expr = receiver
    direct = True
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
        direct = False
    if not isinstance(node, ast.Name):
        return None
    owner = method_self(ctx, receiver)
    if owner is not None and node.id == owner[1]:
        return None if direct else node.id
    where = binding_scope(ctx, receiver, node.id)
    if isinstance(where, str):  # a module global, unless the name is an import or a builtin
        return None if ctx.resolve(node) is not None else node.id
    return None if is_traced_scope(ctx, where) else node.id


def _statement_lists(node: ast.AST) -> list[list[ast.stmt]]:
    return [
        block
        for field in ("body", "orelse", "finalbody")
        if isinstance(block := getattr(node, field, None), list)
    ] + [h.body for h in getattr(node, "handlers", ())]


def _made_fresh_before(ctx: BlockContext, target: ast.expr, node: ast.AST) -> bool:
    """``self.logs = {}`` earlier in the same call, on the way to ``node``: the container is
    rebuilt on every call (every trace), so filling it is not a leaked side effect."""
    child: ast.AST = node
    for parent in ctx.index.ancestors(node):
        for block in _statement_lists(parent):
            if child not in block:
                continue
            for stmt in block[: block.index(child)]:
                if (
                    isinstance(stmt, ast.Assign)
                    and any(same_target(t, target) for t in stmt.targets)
                    and isinstance(
                        stmt.value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp)
                    )
                ):
                    return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        child = parent
    return False


def _guarded_creation(ctx: BlockContext, stmt: ast.stmt, name: str) -> bool:
    """``if g is None: g = ...`` (or ``if not g:``): state made once, on the first trace.
    For a container the test may ask about one of its items (``if not cell[0]: cell[0] =
    ...``, ``if slots[0] is None: slots[0], slots[1] = ...``)."""
    child: ast.AST = stmt
    for parent in ctx.index.ancestors(stmt):
        if isinstance(parent, ast.If) and child in parent.body:
            for test in ast.walk(parent.test):
                if (
                    isinstance(test, ast.Compare)
                    and _names(test.left, name)
                    and any(isinstance(op, ast.Is) for op in test.ops)
                    and any(
                        isinstance(c, ast.Constant) and c.value is None for c in test.comparators
                    )
                ):
                    return True
                if (
                    isinstance(test, ast.UnaryOp)
                    and isinstance(test.op, ast.Not)
                    and _names(test.operand, name)
                ):
                    return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        child = parent
    return False


def _names(expr: ast.expr, name: str) -> bool:
    """``name`` itself, or an item of it (``name[0]``)."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id == name


def _holds_tensor_state(ctx: BlockContext, expr: ast.expr) -> bool:
    """Tensors and variables are owned by TFL109/TFL110, not reported as Python side effects."""
    if isinstance(expr, ast.Name) and holds_variable(ctx, expr, expr.id):
        return True
    return is_tensor_expr(ctx, expr)


def _global_write(ctx: BlockContext, node: ast.stmt, name: str) -> str | None:
    """``global``/``nonlocal`` when ``name`` written at ``node`` lives outside the trace."""
    scopes = enclosing_scopes(ctx, node)
    if not scopes:
        return None
    scope = scope_of(ctx, scopes[0])
    if name in scope.declared_global:
        return "global"
    if name in scope.declared_nonlocal:
        owner = binding_scope(ctx, scopes[0], name) if len(scopes) > 1 else MODULE
        if isinstance(owner, str) or not is_traced_scope(ctx, owner):
            return "nonlocal"
    return None


def _store_targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    return []


@detector("TFL103")
def python_side_effect_in_graph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return
    for call in calls_of(ctx, _SIDE_EFFECT_METHODS, _FILE_WRITER_NAMES):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _MUTATORS:
            if not ctx.in_graph(call):
                continue
            if any(is_variable_factory(ctx, a, None) for a in call.args):
                continue  # ``created.append(tf.Variable(...))``: lazy, one-time state creation
            root = _outside_root(ctx, func.value)
            if (
                root is not None
                and may_be_container(ctx, func.value)
                and not _holds_tensor_state(ctx, func.value)
                and not _made_fresh_before(ctx, func.value, call)
            ):
                ctx.report(
                    "TFL103",
                    call,
                    args={
                        "target": ctx.source(func.value),
                        "method": func.attr,
                        "function": ctx.graph_function_name(call),
                    },
                )
        elif last_name(func) in _FILE_WRITER_NAMES:
            name = ctx.resolve(func)
            if name in _FILE_WRITERS and ctx.in_graph(call):
                ctx.report(
                    "TFL103",
                    call,
                    message="file",
                    args={"call": ctx.source(func), "function": ctx.graph_function_name(call)},
                )

    statements: list[ast.stmt] = [
        *ctx.index.nodes(ast.Assign),
        *ctx.index.nodes(ast.AugAssign),
        *ctx.index.nodes(ast.AnnAssign),
        *ctx.index.nodes(ast.Delete),
    ]
    # Only blocks that declare global/nonlocal names can write them from a function.
    declares = bool(ctx.index.nodes(ast.Global) or ctx.index.nodes(ast.Nonlocal))
    for stmt in statements:
        for target in _store_targets(stmt):
            if isinstance(target, ast.Name):
                if declares:
                    _report_global_write(ctx, stmt, target)
            elif isinstance(target, (ast.Subscript, ast.Attribute)):
                _report_outside_store(ctx, stmt, target)


def _report_global_write(ctx: BlockContext, stmt: ast.stmt, target: ast.Name) -> None:
    if not ctx.in_graph(stmt):
        return
    keyword = _global_write(ctx, stmt, target.id)
    if keyword is None or _guarded_creation(ctx, stmt, target.id):
        return
    # ``v += 1`` on a global tf.Variable is TFL110's (it raises or rebinds the variable).
    if holds_variable(ctx, stmt, target.id) and _updates_itself(stmt, target):
        return
    ctx.report(
        "TFL103",
        stmt,
        message="global",
        args={
            "name": target.id,
            "keyword": keyword,
            "function": ctx.graph_function_name(stmt),
        },
    )


def _updates_itself(stmt: ast.stmt, target: ast.expr) -> bool:
    if isinstance(stmt, ast.AugAssign):
        return True
    return isinstance(stmt, ast.Assign) and mentions(stmt.value, target)


def _report_outside_store(
    ctx: BlockContext, stmt: ast.stmt, target: ast.Subscript | ast.Attribute
) -> None:
    owner = method_self(ctx, target)
    root: ast.expr = target.value
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if owner is not None and isinstance(root, ast.Name) and root.id == owner[1]:
        # ``self.x = ...`` in a Keras ``call`` is ordinary; self-updates belong to TFL104.
        return
    if not ctx.in_graph(stmt):
        return
    if _outside_root(ctx, target.value) is None or _holds_tensor_state(ctx, target.value):
        return
    if isinstance(target, ast.Subscript) and not may_be_container(ctx, target.value):
        return
    if isinstance(target, ast.Subscript) and _made_fresh_before(ctx, target.value, stmt):
        return
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and _guarded_creation(ctx, stmt, target.value.id)
    ):
        return  # ``if not d: d["k"] = ...``: filled once, on the first trace, on purpose
    ctx.report(
        "TFL103",
        stmt,
        message="store",
        args={"target": ctx.source(target), "function": ctx.graph_function_name(stmt)},
    )


# -- TFL105: Python random numbers frozen into the graph -----------------------------------
_RANDOM_MODULES = ("random.", "numpy.random.")


def _random_fix(ctx: BlockContext, call: ast.Call, name: str) -> Fix | None:
    """A tf.random replacement for the simple scalar forms (unsafe: dtypes become float32)."""
    tf_name = ctx.alias_for("tensorflow")
    if tf_name is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    args = [ctx.source(a) for a in call.args]
    uniform = f"{tf_name}.random.uniform"
    normal = f"{tf_name}.random.normal"
    no_arg = {
        "random.random": uniform,
        "numpy.random.rand": uniform,
        "numpy.random.random": uniform,
        "numpy.random.random_sample": uniform,
        "numpy.random.randn": normal,
    }
    two_args = {
        "random.uniform": uniform,
        "numpy.random.uniform": uniform,
        "random.gauss": normal,
        "random.normalvariate": normal,
        "numpy.random.normal": normal,
    }
    if not args and name in no_arg:
        text = f"{no_arg[name]}([])"
    elif len(args) == 2 and name in two_args:
        text = f"{two_args[name]}([], {args[0]}, {args[1]})"
    else:
        return None
    return ctx.fix(ctx.replace(call, text), safe=False, replacement=text)


@detector("TFL105")
def python_random_in_graph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute | ast.Name) or not may_come_from(
            ctx, func, ("random", "numpy")
        ):
            continue
        name = ctx.resolve(func)
        if name is None or not name.startswith(_RANDOM_MODULES):
            continue
        info = ctx.graph_info(call)
        if info is None:
            continue
        ctx.report(
            "TFL105",
            call,
            message="dataset" if info.kind == "dataset" else "default",
            args={"call": ctx.source(func), "function": ctx.graph_function_name(call)},
            fix=_random_fix(ctx, call, name),
        )


# -- TFL112: Python truth tests on tensors where AutoGraph does not convert them ------------
_KERAS_STEPS = frozenset({"train_step", "test_step", "predict_step", "compute_loss"})


def _autograph_off(ctx: BlockContext, node: ast.AST) -> tuple[str, frozenset[str]] | None:
    """Why Python control flow at ``node`` is not converted by AutoGraph, or None.

    Also returns the parameters of the function that surely receive tensors there: all of an
    ``autograph=False`` function's (but defaulted ones), the first input of a Keras method.
    """
    for scope in ctx.index.ancestors(node):
        if isinstance(scope, ast.ClassDef):
            return None
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if has_decorator(ctx, scope, DO_NOT_CONVERT):
            return ("default", _tensor_params(scope)) if ctx.in_graph(node) else None
        flag = decorator_call_keyword(ctx, scope, TF_FUNCTION, "autograph")
        if isinstance(flag, ast.Constant) and flag.value is False:
            return "default", _tensor_params(scope)
        info = ctx.summary.graph.get(ctx.index.scope_id(scope))
        if info is None:
            continue
        called = info.kind == "called"
        reason = _keras_without_autograph(
            ctx, info.origin if called else None, info.kind, scope.name
        )
        if reason is None:
            return None
        inputs = frozenset() if called else _tensor_params(scope, first_only=True)
        return reason, inputs
    return None


def _tensor_params(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, first_only: bool = False
) -> frozenset[str]:
    args = [*fn.args.posonlyargs, *fn.args.args]
    defaults = len(fn.args.defaults)
    plain = [a.arg for a in (args[: len(args) - defaults] if defaults else args)]
    plain = [name for name in plain if name not in ("self", "cls", "training", "mask")]
    return frozenset(plain[:1] if first_only else plain)


_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _tensor_test(ctx: BlockContext, test: ast.expr, params: frozenset[str]) -> bool:
    """A condition on a tensor: a tensor expression, or an ordering test on a tensor input."""
    if is_tensor_expr(ctx, test):
        return True
    if not params:
        return False
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(op, _ORDERING) for op in node.ops):
            operands = (node.left, *node.comparators)
            if any(isinstance(o, ast.Name) and o.id in params for o in operands):
                return True
    return False


def _keras_without_autograph(
    ctx: BlockContext, origin: str | None, kind: str, name: str
) -> str | None:
    if origin is not None:
        root = ctx.summary.graph.get(origin)
        if root is None or root.kind == "called":
            return None
        kind, name = root.kind, origin.rpartition(".")[2]
    if kind == "keras":
        if name in _KERAS_STEPS:
            return "keras_step"
        return "keras3" if ctx.keras_version == 3 else None
    if kind == "compile":
        return "keras3" if ctx.keras_version == 3 else None
    return None


# A module that converts functions with AutoGraph by hand (``X.call = to_graph(X.call)``).
TO_GRAPH = "tensorflow.autograph.to_graph"
watch(TO_GRAPH)

_STATEMENT_WORDS: dict[type[ast.If | ast.While | ast.IfExp | ast.Assert], str] = {
    ast.If: "if",
    ast.While: "while",
    ast.IfExp: "if … else",
    ast.Assert: "assert",
}


@detector("TFL112")
def python_bool_of_tensor_outside_autograph(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return
    for call in calls_of(ctx, functions=("bool",)):
        if len(call.args) != 1:
            continue
        if ctx.resolve(call.func) != "builtins.bool" or not ctx.in_graph(call):
            continue
        if is_tensor_expr(ctx, call.args[0]):
            ctx.report(
                "TFL112", call, message="bool", args={"function": ctx.graph_function_name(call)}
            )
    for kind, word in _STATEMENT_WORDS.items():
        for node in ctx.index.nodes(kind):
            test: ast.expr = node.test
            found = _autograph_off(ctx, node)
            if found is None or not _tensor_test(ctx, test, found[1]):
                continue
            if found[0] != "default" and ctx.summary.has(TO_GRAPH):
                continue  # Keras' own AutoGraph gap, filled by hand in this module
            reason = found[0]
            ctx.report(
                "TFL112",
                test,
                message=reason,
                args={"statement": word, "function": ctx.graph_function_name(node)},
            )
