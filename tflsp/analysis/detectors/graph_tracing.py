"""Graph/eager family (TFL1xx): how often graphs are traced, and switches that turn them off.

Retracing from Python numbers or freshly created tf.functions (TFL106), the deprecated
``experimental_run_functions_eagerly`` spelling (TFL107) and eager debugging left on (TFL108).
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import (
    FUNCTION_TYPES,
    TF_FUNCTION,
    binding_scope,
    last_name,
    method_self,
    scope_of,
)
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.facts import RESOLVED_PREFIX
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.summary import ModuleSummary

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


# -- module fact: tf.functions whose input_signature turns Python numbers into tensors -----
FIXED_SIGNATURES = "graph.fixed_signatures"


def _has_signature(call: ast.AST) -> bool:
    return isinstance(call, ast.Call) and any(kw.arg == "input_signature" for kw in call.keywords)


def _fixed_signatures(index: NodeIndex) -> frozenset[str]:
    names: set[str] = set()
    for fn in index.functions():
        if any(_has_signature(d) for d in fn.decorator_list):
            names.add(index.scope_id(fn))
    for assign in index.nodes(ast.Assign):
        if _has_signature(assign.value):
            names.update(t.id for t in assign.targets if isinstance(t, ast.Name))
    return frozenset(names)


def _union(values: Sequence[Hashable], summary: ModuleSummary) -> frozenset[str]:
    out: set[str] = set()
    for value in values:
        if isinstance(value, frozenset):
            out.update(value)
    return frozenset(out)


module_fact(FIXED_SIGNATURES, _fixed_signatures, _union)


# -- TFL106: retracing ---------------------------------------------------------------------
def _creates_tf_function(ctx: BlockContext, decorators: Sequence[str]) -> bool:
    """Module-level decorator texts (from the summary) that make a tf.function."""
    for text in decorators:
        if text.startswith(RESOLVED_PREFIX):
            if text[1:] == TF_FUNCTION:
                return True
        elif ctx.summary.resolve(text) == TF_FUNCTION or text in ctx.summary.wrapper_decorators:
            return True
    return False


def _is_tf_function_decorator(ctx: BlockContext, deco: ast.expr) -> bool:
    target = deco.func if isinstance(deco, ast.Call) else deco
    if isinstance(target, ast.Name) and target.id in ctx.summary.wrapper_decorators:
        return True
    return last_name(target) == "function" and ctx.resolve(target) == TF_FUNCTION


def _makes_tf_function(ctx: BlockContext, call: ast.Call) -> bool:
    """``tf.function(g)`` or a call of a local wrapper that returns a tf.function."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in ctx.summary.wrapper_decorators:
        return binding_scope(ctx, call, func.id) == "module"
    return last_name(func) == "function" and ctx.resolve(func) == TF_FUNCTION


def _fixed(ctx: BlockContext, name: str) -> bool:
    fixed = ctx.summary.extra.get(FIXED_SIGNATURES)
    return isinstance(fixed, frozenset) and name in fixed


def _tf_function_callee(ctx: BlockContext, call: ast.Call) -> str | None:
    """The display name of the tf.function ``call`` calls, when it is one."""
    func = call.func
    if isinstance(func, ast.Attribute):
        owner = method_self(ctx, call)
        if owner is None or not (isinstance(func.value, ast.Name) and func.value.id == owner[1]):
            return None
        for method in owner[0].body:
            if isinstance(method, FUNCTION_TYPES) and method.name == func.attr:
                decorated = any(_is_tf_function_decorator(ctx, d) for d in method.decorator_list)
                fixed = any(_has_signature(d) for d in method.decorator_list)
                return ctx.source(func) if decorated and not fixed else None
        return None
    if not isinstance(func, ast.Name):
        return None
    where = binding_scope(ctx, call, func.id)
    if isinstance(where, str):
        # Read through the (tracked) graph map first, so that cached findings of this block
        # are dropped when the function gains or loses its decorator in another block.
        info = ctx.summary.graph.get(func.id)
        facts = ctx.summary.functions.get(func.id) if info is not None else None
        if facts is not None and _creates_tf_function(ctx, facts.decorators):
            return None if _fixed(ctx, func.id) else func.id
        wrappers = (f"local:{w}" for w in ctx.summary.wrapper_decorators)
        if ctx.summary.holds(func.id, TF_FUNCTION, *wrappers) and not _fixed(ctx, func.id):
            return func.id
        return None
    for fn in ctx.index.functions():
        if fn.name == func.id and ctx.index.enclosing_function(fn) is where:
            decorated = any(_is_tf_function_decorator(ctx, d) for d in fn.decorator_list)
            fixed = any(_has_signature(d) for d in fn.decorator_list)
            return func.id if decorated and not fixed else None
    values = scope_of(ctx, where).values.get(func.id, [])
    for value in values:
        if isinstance(value, ast.Call) and _makes_tf_function(ctx, value):
            return None if _has_signature(value) else func.id
    return None


def _counter_names(ctx: BlockContext, target: ast.expr, iterable: ast.expr) -> set[str]:
    """Names a loop binds to Python numbers: ``range``, ``enumerate`` indexes, number lists."""
    if isinstance(iterable, ast.Call):
        name = ctx.resolve(iterable.func)
        if name == "builtins.range" and isinstance(target, ast.Name):
            return {target.id}
        if (
            name == "builtins.enumerate"
            and isinstance(target, ast.Tuple)
            and target.elts
            and isinstance(target.elts[0], ast.Name)
        ):
            return {target.elts[0].id}
    elif (
        isinstance(iterable, (ast.List, ast.Tuple))
        and iterable.elts
        and isinstance(target, ast.Name)
    ):
        numeric = all(
            isinstance(e, ast.Constant)
            and isinstance(e.value, (int, float))
            and not isinstance(e.value, bool)
            for e in iterable.elts
        )
        if numeric:
            return {target.id}
    return set()


def _target_names(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _rebinds(body: list[ast.stmt], name: str) -> bool:
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
                return True
    return False


def _is_loop_counter(ctx: BlockContext, name: ast.Name) -> bool:
    for parent in ctx.index.ancestors(name):
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, (ast.For, ast.AsyncFor)):
            if name.id in _counter_names(ctx, parent.target, parent.iter):
                return not _rebinds(parent.body, name.id)
            if name.id in _target_names(parent.target):
                return False
        elif isinstance(parent, _COMPREHENSIONS):
            for gen in parent.generators:
                if name.id in _counter_names(ctx, gen.target, gen.iter):
                    return True
                if name.id in _target_names(gen.target):
                    return False
    return False


def _python_number_from_loop(ctx: BlockContext, arg: ast.expr) -> bool:
    if isinstance(arg, ast.Name):
        return _is_loop_counter(ctx, arg)
    if isinstance(arg, ast.BinOp):
        parts = (arg.left, arg.right)
        return all(_number_or_counter(ctx, p) for p in parts) and any(
            _python_number_from_loop(ctx, p) for p in parts
        )
    if isinstance(arg, ast.UnaryOp):
        return _python_number_from_loop(ctx, arg.operand)
    if isinstance(arg, ast.Call) and len(arg.args) == 1 and not arg.keywords:
        converter = ctx.resolve(arg.func)
        return converter in (
            "builtins.int",
            "builtins.float",
            "builtins.round",
            "builtins.abs",
        ) and (_python_number_from_loop(ctx, arg.args[0]))
    return False


def _number_or_counter(ctx: BlockContext, node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    return _python_number_from_loop(ctx, node)


def _innermost_loop(ctx: BlockContext, node: ast.AST) -> ast.AST | None:
    return ctx.index.enclosing_loop(node, stop_at_function=True)


def _calls_in(ctx: BlockContext, container: ast.AST, name: str) -> list[ast.Call]:
    found = []
    for call in ctx.index.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == name:
            for parent in ctx.index.ancestors(call):
                if parent is container:
                    found.append(call)
                    break
    return found


def _forwards_parameters(call: ast.Call, outer: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The call passes one of ``outer``'s own parameters (so ``outer`` runs once per input)."""
    params = {a.arg for a in (*outer.args.posonlyargs, *outer.args.args, *outer.args.kwonlyargs)}
    params.discard("self")
    passed = [*call.args, *(kw.value for kw in call.keywords)]
    return any(isinstance(a, ast.Name) and a.id in params for a in passed)


def _report_creation(
    ctx: BlockContext, node: ast.AST, anchor: ast.AST, name: str | None, immediate: ast.Call | None
) -> None:
    """Report a tf.function created at ``anchor`` when every use of it traces afresh.

    ``name`` is the name it is bound to (a def or an assignment); ``immediate`` is the call
    when it is invoked right where it is created (``tf.function(g)(x)``).
    """
    if ctx.in_graph(anchor):
        return
    loop = _innermost_loop(ctx, anchor)
    calls = [immediate] if immediate is not None else []
    if name is not None:
        container = loop if loop is not None else ctx.index.enclosing_function(anchor)
        if container is not None:
            calls.extend(_calls_in(ctx, container, name))
    display = name or ctx.source(anchor)
    if loop is not None:
        if any(_innermost_loop(ctx, c) is loop for c in calls):
            ctx.report("TFL106", node, message="created_in_loop", args={"function": display})
        return
    outer = ctx.index.enclosing_function(anchor)
    if not isinstance(outer, FUNCTION_TYPES) or outer.name == "__init__":
        return
    if any(_innermost_loop(ctx, c) is None and _forwards_parameters(c, outer) for c in calls):
        ctx.report(
            "TFL106",
            node,
            message="created_per_call",
            args={"function": display, "outer": outer.name},
        )


def _loop_target_names(ctx: BlockContext) -> set[str]:
    names: set[str] = set()
    loops: list[ast.For | ast.AsyncFor] = [
        *ctx.index.nodes(ast.For),
        *ctx.index.nodes(ast.AsyncFor),
    ]
    for loop in loops:
        names |= _target_names(loop.target)
    for gen in ctx.index.nodes(ast.comprehension):
        names |= _target_names(gen.target)
    return names


def _mentions_any(expr: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


@detector("TFL106")
def retracing(ctx: BlockContext) -> None:
    counters = _loop_target_names(ctx)
    for call in ctx.index.nodes(ast.Call):
        numbers: list[ast.expr] = []
        if counters:
            passed = [*call.args, *(kw.value for kw in call.keywords)]
            numbers = [
                a for a in passed if _mentions_any(a, counters) and _python_number_from_loop(ctx, a)
            ]
        if numbers:
            callee = _tf_function_callee(ctx, call)
            if callee is not None:
                for arg in numbers:
                    ctx.report(
                        "TFL106", arg, args={"function": callee, "argument": ctx.source(arg)}
                    )
        if call.args and _makes_tf_function(ctx, call):
            parent = ctx.index.parent(call)
            if isinstance(parent, ast.Call) and parent.func is call:
                _report_creation(ctx, call, call, None, parent)
            elif (
                isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                _report_creation(ctx, call, call, parent.targets[0].id, None)
    for fn in ctx.index.functions():
        for deco in fn.decorator_list:
            if _is_tf_function_decorator(ctx, deco):
                _report_creation(ctx, deco, fn, fn.name, None)
                break


# -- TFL107: the deprecated experimental_* spelling ----------------------------------------
_RENAMED = {
    "experimental_run_functions_eagerly": "run_functions_eagerly",
    "experimental_functions_run_eagerly": "functions_run_eagerly",
}


@detector("TFL107")
def deprecated_run_functions_eagerly(ctx: BlockContext) -> None:
    for node in ctx.index.nodes(ast.Attribute):
        new = _RENAMED.get(node.attr)
        if new is None or ctx.resolve(node) != f"tensorflow.config.{node.attr}":
            continue
        text = f"{ctx.source(node.value)}.{new}"
        ctx.report(
            "TFL107",
            node,
            args={"old": node.attr, "new": new},
            fix=ctx.fix(ctx.replace(node, text), safe=True, new=new),
        )


# -- TFL108: eager execution left on -------------------------------------------------------
_EAGER_SWITCHES = frozenset(
    {
        "tensorflow.config.run_functions_eagerly",
        "tensorflow.config.experimental_run_functions_eagerly",
    }
)
_SWITCH_NAMES = frozenset(
    {"run_functions_eagerly", "experimental_run_functions_eagerly", "enable_debug_mode"}
)
_GUARD_WORDS = ("debug", "eager")


def _is_true(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _mentions_debug(test: ast.AST) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            word = node.value
        else:
            continue
        if any(w in word.lower() for w in _GUARD_WORDS):
            return True
    return False


def _debug_guarded(ctx: BlockContext, node: ast.AST) -> bool:
    """Inside ``if args.debug:``-style branches, debug helpers, or tests."""
    child = node
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            if _mentions_debug(parent.test):
                return True
        elif isinstance(parent, FUNCTION_TYPES):
            lowered = parent.name.lower()
            if lowered.startswith("test") or "debug" in lowered:
                return True
        child = parent
    return False


def _drop_keyword(ctx: BlockContext, call: ast.Call, kw: ast.keyword) -> Edit:
    """Delete ``kw`` together with the comma that separates it from its neighbour."""
    items: list[ast.AST] = sorted(
        [*call.args, *call.keywords],
        key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)),
    )
    i = items.index(kw)
    line, col, end_line, end_col = ctx.node_range(kw)
    if i > 0:
        _, _, line, col = ctx.node_range(items[i - 1])
    elif len(items) > 1:
        end_line, end_col, _, _ = ctx.node_range(items[1])
    return Edit(line, col, end_line, end_col, "")


@detector("TFL108")
def eager_debug_left_on(ctx: BlockContext) -> None:
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "compile":
            kw = ctx.keyword(call, "run_eagerly")
            if kw is not None and _is_true(kw.value) and not _debug_guarded(ctx, call):
                fix = ctx.fix(_drop_keyword(ctx, call, kw), safe=False)
                ctx.report("TFL108", kw, message="compile", fix=fix)
            continue
        if last_name(func) not in _SWITCH_NAMES:
            continue
        name = ctx.resolve(func)
        if name in _EAGER_SWITCHES:
            flag = call.args[0] if call.args else None
            if flag is None:
                kw = ctx.keyword(call, "run_eagerly")
                flag = kw.value if kw is not None else None
            if _is_true(flag) and not _debug_guarded(ctx, call):
                ctx.report("TFL108", call, args={"call": ctx.source(func)})
        elif name == "tensorflow.data.experimental.enable_debug_mode" and not _debug_guarded(
            ctx, call
        ):
            ctx.report("TFL108", call, message="data")
    for assign in ctx.index.nodes(ast.Assign):
        if not _is_true(assign.value):
            continue
        for target in assign.targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr == "run_eagerly"
                and not _debug_guarded(ctx, assign)
            ):
                ctx.report(
                    "TFL108", assign, message="attribute", args={"target": ctx.source(target)}
                )
