"""Graph/eager family (TFL1xx): how often graphs are traced, and switches that turn them off.

Retracing from Python numbers or freshly created tf.functions (TFL106), the deprecated
``experimental_run_functions_eagerly`` spelling (TFL107) and eager debugging left on (TFL108).
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import attributes_named, calls_of, stored_names
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import (
    FUNCTION_TYPES,
    TF_FUNCTION,
    binding_scope,
    last_name,
    scope_of,
)
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.evaluate import FIXED

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


# -- TFL106: retracing ---------------------------------------------------------------------
def _is_tf_function_value(value: v.Value) -> bool:
    return value.kind == v.FUNCTION and value.const == v.TF_FUNCTION


def _makes_tf_function(ctx: BlockContext, call: ast.Call) -> bool:
    """``tf.function(g)`` or a call of a local wrapper that returns a tf.function."""
    if not call.args or not isinstance(call.func, (ast.Name, ast.Attribute)):
        return False
    if isinstance(call.func, ast.Attribute) and call.func.attr != "function":
        return False  # tf.function under any alias is ``<alias>.function`` or a plain name
    func = ctx.value(call.func)
    if ctx.qualname(call.func) == TF_FUNCTION:
        return True
    if not v.any_of(func, lambda x: x.kind == v.FUNCTION and x.is_local):
        return False  # print(), len(), a class...: not a wrapper of this module
    if isinstance(call.func, ast.Name):
        # Calling a function of this module gives what it returns, whatever the arguments:
        # when one of them returns anything but a tf.function, so does the call, and its
        # arguments need not be evaluated (most helpers return tensors or nothing).
        evaluator = ctx.model.evaluator
        for x in func:
            if (
                x.kind == v.FUNCTION
                and x.is_local
                and not all(_is_tf_function_value(r) for r in evaluator.returns(x.local_id))
            ):
                return False
    return v.all_of(ctx.value(call), _is_tf_function_value)


def _is_tf_function_def(ctx: BlockContext, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return ctx.model.evaluator.function_flavor(ctx.function_id(fn)) == v.TF_FUNCTION


def _tf_function_callee(ctx: BlockContext, call: ast.Call) -> str | None:
    """The display name of the tf.function ``call`` calls, when it is one whose signature is
    not fixed by ``input_signature``."""
    func = call.func
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    values = ctx.value(func)
    if v.all_of(values, lambda x: _is_tf_function_value(x) and x.base != FIXED):
        return ctx.source(func)
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


def _rebinds(ctx: BlockContext, loop: ast.For | ast.AsyncFor, name: str) -> bool:
    """Does a statement of the body of ``loop`` store ``name``?"""
    parents = ctx.index.parents
    for store in stored_names(ctx).get(name, ()):
        child: ast.AST = store
        parent = parents.get(child)
        while parent is not None and parent is not loop:
            child, parent = parent, parents.get(parent)
        if parent is loop and child in loop.body:
            return True
    return False


def _is_loop_counter(ctx: BlockContext, name: ast.Name) -> bool:
    for parent in ctx.index.ancestors(name):
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, (ast.For, ast.AsyncFor)):
            if name.id in _counter_names(ctx, parent.target, parent.iter):
                return not _rebinds(ctx, parent, name.id)
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
    if _runs_once_or_unknown(ctx, outer):
        return
    if _depends_on(ctx, anchor, outer):
        return  # real-code-findings M9: it must be made anew for each call of ``outer``
    if len(calls) > 1 or any(_repeats_within(ctx, c, outer) for c in calls):
        return  # made once per call of ``outer`` and reused inside it
    if any(_forwards_parameters(c, outer) for c in calls):
        ctx.report(
            "TFL106",
            node,
            message="created_per_call",
            args={"function": display, "outer": outer.name},
        )


def _repeats_within(ctx: BlockContext, call: ast.Call, outer: ast.AST) -> bool:
    """Does ``call`` run repeatedly within one run of ``outer``: in a loop or a comprehension
    (not the iterable of its first ``for``, which is evaluated once)?"""
    child: ast.AST = call
    below: ast.AST | None = None  # the child's own child on the way up
    for parent in ctx.index.ancestors(call):
        if parent is outer:
            return False
        if isinstance(parent, _LOOPS) and child is not getattr(parent, "iter", None):
            return True
        if isinstance(parent, _COMPREHENSIONS) and not (
            child is parent.generators[0] and below is parent.generators[0].iter
        ):
            return True
        below, child = child, parent
    return False


def _runs_once_or_unknown(ctx: BlockContext, outer: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Nothing says ``outer`` runs more than once: a test method (the runner calls it once), or
    a nested function the enclosing one never calls itself but hands over (to
    ``strategy.run``, a training loop of a library), which may well call it only while tracing."""
    owner = ctx.index.parent(outer)
    if isinstance(owner, ast.ClassDef):
        return any(_is_test_case(ctx, base) for base in owner.bases)
    enclosing = ctx.index.enclosing_function(outer)
    if not isinstance(enclosing, FUNCTION_TYPES):
        return False
    return not any(
        isinstance(call.func, ast.Name) and call.func.id == outer.name
        for call in ctx.index.nodes(ast.Call)
        if ctx.index.enclosing_function(call) is enclosing
    )


def _is_test_case(ctx: BlockContext, base: ast.expr) -> bool:
    """A unittest-style test case class (``unittest``, ``absltest``, ``tf.test``...)."""
    name = ctx.qualname(base)
    return name is not None and name.rsplit(".", 1)[-1] in ("TestCase", "TestCaseBase")


def _depends_on(
    ctx: BlockContext, anchor: ast.AST, outer: ast.FunctionDef | ast.AsyncFunctionDef
) -> bool:
    """Do the options the tf.function is made with (decorator arguments, ``tf.function``'s
    keywords) read names ``outer`` binds?  Then it has to be made for each call of ``outer``
    (an ``input_signature`` from the outer arguments, ``experimental_implements=...``)."""
    bound = scope_of(ctx, outer).bound - {"self", "cls"}
    options: list[ast.AST] = []
    if isinstance(anchor, ast.Call):
        options.extend(kw.value for kw in anchor.keywords)
    elif isinstance(anchor, (ast.FunctionDef, ast.AsyncFunctionDef)):
        options.extend(d for d in anchor.decorator_list if isinstance(d, ast.Call))
    return any(
        isinstance(node, ast.Name)
        and isinstance(node.ctx, ast.Load)
        and node.id in bound
        and binding_scope(ctx, node, node.id) is outer
        for option in options
        for node in ast.walk(option)
    )


def _loop_target_names(ctx: BlockContext) -> set[str]:
    names: set[str] = set()
    loops: tuple[list[ast.For], list[ast.AsyncFor], list[ast.comprehension]] = (
        ctx.index.nodes(ast.For),
        ctx.index.nodes(ast.AsyncFor),
        ctx.index.nodes(ast.comprehension),
    )
    for nodes in loops:
        for loop in nodes:
            target = loop.target
            if isinstance(target, ast.Name):
                names.add(target.id)
            else:
                names |= _target_names(target)
    return names


@detector("TFL106")
def retracing(ctx: BlockContext) -> None:
    counters = _loop_target_names(ctx)
    mentioning = ctx.index.mentioning(counters) if counters else set()
    for call in ctx.index.nodes(ast.Call):
        numbers: list[ast.expr] = []
        if call in mentioning:
            passed = [*call.args, *(kw.value for kw in call.keywords)]
            numbers = [a for a in passed if a in mentioning and _python_number_from_loop(ctx, a)]
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
        if fn.decorator_list and _is_tf_function_def(ctx, fn):
            _report_creation(ctx, fn.decorator_list[0], fn, fn.name, None)


# -- TFL107: the deprecated experimental_* spelling ----------------------------------------
_RENAMED = {
    "experimental_run_functions_eagerly": "run_functions_eagerly",
    "experimental_functions_run_eagerly": "functions_run_eagerly",
}


@detector("TFL107")
def deprecated_run_functions_eagerly(ctx: BlockContext) -> None:
    for node in attributes_named(ctx, _RENAMED):
        new = _RENAMED[node.attr]
        if ctx.resolve(node) != f"tensorflow.config.{node.attr}":
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
_COMPILE_OR_SWITCH = _SWITCH_NAMES | {"compile"}


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


# A test fixture's set-up method and the tear-down method that always runs after it.
_TEARDOWNS = {
    "setUp": "tearDown",
    "asyncSetUp": "asyncTearDown",
    "setUpClass": "tearDownClass",
    "setup_method": "teardown_method",
    "setup_class": "teardown_class",
}


def _switch_flag(ctx: BlockContext, call: ast.Call) -> ast.expr | None:
    """The flag a ``run_functions_eagerly`` call passes (None: not such a call)."""
    func = call.func
    if last_name(func) not in _SWITCH_NAMES or ctx.resolve(func) not in _EAGER_SWITCHES:
        return None
    if call.args:
        return call.args[0]
    kw = ctx.keyword(call, "run_eagerly")
    return kw.value if kw is not None else None


def _is_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _switches_off(
    ctx: BlockContext, scope: ast.AST, after: ast.AST | None = None, depth: int = 0
) -> bool:
    """``scope`` turns graphs back on (after ``after``, when given): a call with ``False``,
    ``addCleanup(tf.config.run_functions_eagerly, False)``, or a clean-up it registers
    (``addCleanup(f)``, pytest's ``request.addfinalizer(f)``) that does."""
    start = (getattr(after, "lineno", 0), getattr(after, "col_offset", 0))
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call) or (node.lineno, node.col_offset) <= start:
            continue
        if _is_false(_switch_flag(ctx, node)):
            return True
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in _CLEANUPS and node.args):
            continue
        first = node.args[0]
        if ctx.resolve(first) in _EAGER_SWITCHES:
            if len(node.args) == 2 and _is_false(node.args[1]):
                return True
            continue
        if depth < 2 and _cleanup_switches_off(ctx, first, depth):
            return True
    return False


# Methods that register a function to run when a test (or fixture) ends.
_CLEANUPS = frozenset({"addCleanup", "addClassCleanup", "addfinalizer"})


def _cleanup_switches_off(ctx: BlockContext, cleanup: ast.expr, depth: int) -> bool:
    """Does the registered clean-up turn graphs back on?  A lambda or a function of this
    block is read; one defined elsewhere (another top-level statement, another file) may
    well do it, and unknown is not a reason to report."""
    if isinstance(cleanup, ast.Lambda):
        return _switches_off(ctx, cleanup.body, depth=depth + 1)
    if not isinstance(cleanup, ast.Name):
        return False
    local = [
        fn
        for kind in FUNCTION_TYPES
        for fn in ctx.index.nodes(kind)
        if isinstance(fn, FUNCTION_TYPES) and fn.name == cleanup.id
    ]
    if local:
        return any(_switches_off(ctx, fn, depth=depth + 1) for fn in local)
    reach = ctx.reaching(cleanup)
    return reach is None or reach.outer


def _switched_off_later(ctx: BlockContext, call: ast.Call) -> bool:
    """The switch is scoped: module code turns graphs back on after it (real-code-findings
    M7), or so does its own function later (``try``/``finally``, a fixture after its
    ``yield``), or the tear-down paired with the set-up method it sits in (tf-agents' tests
    switch eager execution on in ``setUp`` and off in ``tearDown``)."""
    fn = ctx.index.enclosing_function(call)
    if fn is None:
        return bool(ctx.summary.eager_switches.get(ctx.block_key))
    if _switches_off(ctx, fn, after=call):
        return True
    teardown = _TEARDOWNS.get(getattr(fn, "name", ""))
    owner = ctx.index.parent(fn)
    if teardown is None or not isinstance(owner, ast.ClassDef):
        return False
    return any(
        isinstance(stmt, FUNCTION_TYPES) and stmt.name == teardown and _switches_off(ctx, stmt)
        for stmt in owner.body
    )


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
    for call in calls_of(ctx, _COMPILE_OR_SWITCH, _SWITCH_NAMES):
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
            flag = _switch_flag(ctx, call)
            if (
                _is_true(flag)
                and not _debug_guarded(ctx, call)
                and not _switched_off_later(ctx, call)
            ):
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
