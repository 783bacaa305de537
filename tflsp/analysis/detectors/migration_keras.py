"""Migration family, Keras 3 part: mixing two Kerases (TFL604), TF ops on ``keras.Input`` (TFL605)."""

from __future__ import annotations

import ast
from collections.abc import Hashable, Iterator, Sequence
from functools import partial

from tflsp.analysis.block_names import stored_names
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.migration import raw_target
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.summary import ModuleSummary

# -- TFL604 ----------------------------------------------------------------------------------

FLAVOR_LABELS = {3: "Keras 3 (`keras`)", 2: "Keras 2 (`tf_keras`)"}
_METHODS_TAKING_KERAS_OBJECTS = frozenset({"add", "compile"})


def flavor_of_target(raw: str, keras_version: int) -> int | None:
    """Which Keras a dotted import target reaches: 3, 2, or None when it is no Keras at all."""
    if raw == "tf_keras" or raw.startswith("tf_keras."):
        return 2
    if raw.startswith(("tensorflow.keras", "tensorflow.python.keras")):
        # tf.keras is Keras 3 unless TF_USE_LEGACY_KERAS=1, which is what the target says.
        return keras_version
    if raw == "keras" or raw.startswith("keras."):
        return 3
    return None


# -- module-level values: a functional model is often written as top-level statements, each
# its own block, so what a top-level name holds is collected once per module.

KERAS_VALUES = "migration.keras_values"
# name, producing callee, is it a constructor call (``Model(...)``, not ``Dense(3)(x)``), names used
TopLevelValue = tuple[str, str | None, bool, tuple[str, ...]]


def _extract_values(index: NodeIndex) -> tuple[TopLevelValue, ...]:
    out: list[TopLevelValue] = []
    for stmt in index.tree.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            # Any other binding (for-loop targets, unpacking, with ... as) forgets the value.
            out.extend((name, None, False, ()) for name in _stored_names(stmt))
            continue
        value = stmt.value
        callee = None
        constructs = False
        if isinstance(value, ast.Call):
            func = value.func
            callee = dotted(func.func if isinstance(func, ast.Call) else func)
            constructs = not isinstance(func, ast.Call) and _is_constructor_name(callee)
        head = (callee or "").partition(".")[0]
        used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id != head}
        out.append((stmt.targets[0].id, callee, constructs, tuple(sorted(used))))
    return tuple(out)


def _stored_names(stmt: ast.stmt) -> list[str]:
    """Names a top-level statement binds, not counting the bodies of defs and classes."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    out: list[str] = []
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.append(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _is_constructor_name(callee: str | None) -> bool:
    """``keras.Model``, ``MyModel``: a class is built (an object, not a tensor)."""
    return callee is not None and callee.rpartition(".")[2][:1].isupper()


def _combine_values(
    blocks: Sequence[Hashable], summary: ModuleSummary
) -> tuple[frozenset[tuple[str, int]], frozenset[str]]:
    """Top-level names -> Keras flavour, and the top-level names holding symbolic tensors."""
    # What each statement resolves through the imports is remembered per block: only the
    # names a statement takes from earlier ones are followed over the whole module.
    parts = summary.block_values(
        KERAS_VALUES, blocks, partial(_resolved, summary), _NO_STEPS, _no_assignment
    )
    flavors: dict[str, int] = {}
    symbolic: set[str] = set()
    for steps in parts:
        for name, flavor, alias, makes_input, follows, used in steps:
            if alias is not None:
                flavor = flavors.get(alias)
            if flavor is None:
                flavors.pop(name, None)
            else:
                flavors[name] = flavor
            if makes_input or (follows and any(u in symbolic for u in used)):
                symbolic.add(name)
            else:
                symbolic.discard(name)
    return frozenset(flavors.items()), frozenset(symbolic)


# One top-level assignment: the name, its flavour when the imports tell it, else the name
# whose flavour it takes (``x = y(...)``), whether it makes a ``keras.Input``, whether it
# holds a symbolic tensor when a name it uses does, and those names.
_Step = tuple[str, "int | None", "str | None", bool, bool, tuple[str, ...]]
_NO_STEPS: tuple[_Step, ...] = ()


def _no_assignment(value: Hashable) -> bool:
    return not isinstance(value, tuple) or not value


def _resolved(summary: ModuleSummary, block: int, value: Hashable) -> tuple[_Step, ...]:
    if not isinstance(value, tuple) or not value:
        return _NO_STEPS
    summary.reads_imports()
    steps: list[_Step] = []
    for name, callee, constructs, used in value:
        flavor = None
        alias = None
        qualified = None
        if callee is not None:
            head, _, rest = callee.partition(".")
            target = summary.imports.get(head)
            if target is not None:
                raw = f"{target}.{rest}" if rest else target
                flavor = flavor_of_target(raw, summary.keras_version)
                qualified = summary.resolve(callee)
            elif not rest:
                alias = head
        follows = not constructs and not (qualified or "").startswith("tensorflow.")
        steps.append((name, flavor, alias, qualified == "keras.Input", follows, used))
    return tuple(steps)


module_fact(KERAS_VALUES, _extract_values, _combine_values)


def _module_values(ctx: BlockContext) -> tuple[dict[str, int], frozenset[str]]:
    value = ctx.summary.extra.get(KERAS_VALUES)
    if not isinstance(value, tuple):
        return {}, frozenset()
    flavors, symbolic = value
    return dict(flavors), symbolic


def _module_symbolic(ctx: BlockContext) -> frozenset[str]:
    """The module's top-level names that hold symbolic tensors."""
    value = ctx.summary.extra.get(KERAS_VALUES)
    return value[1] if isinstance(value, tuple) else frozenset()


def reads_global(ctx: BlockContext, name: ast.Name) -> bool:
    """``name`` reads a module-level binding (it is not a local of its function)."""
    fn = ctx.index.enclosing_function(name)
    if fn is None:
        return True
    params = fn.args
    every = [*params.posonlyargs, *params.args, *params.kwonlyargs, params.vararg, params.kwarg]
    if any(p is not None and p.arg == name.id for p in every):
        return False
    return not any(_within(ctx, store, fn) for store in stored_names(ctx).get(name.id, ()))


def _within(ctx: BlockContext, node: ast.AST, fn: ast.AST) -> bool:
    parents = ctx.index.parents
    parent = parents.get(node)
    while parent is not None:
        if parent is fn:
            return True
        parent = parents.get(parent)
    return False


def _possible_flavors(ctx: BlockContext) -> set[int]:
    flavors = ctx.summary.keras_flavors
    out: set[int] = set()
    if "keras3" in flavors:
        out.add(3)
    if "tf_keras" in flavors:
        out.add(2)
    if "tf.keras" in flavors or "tensorflow" in ctx.summary.imports.values():
        out.add(ctx.keras_version)
    return out


class _Flavors:
    """Which Keras each expression of a block comes from (names follow their assignments)."""

    def __init__(self, ctx: BlockContext) -> None:
        self.ctx = ctx
        self.module, _ = _module_values(ctx)
        self.names: dict[str, int] = {}
        for assign in ctx.index.nodes(ast.Assign):
            flavor = self.of(assign.value)
            for target in assign.targets:
                if isinstance(target, ast.Name) and flavor is not None:
                    self.names[target.id] = flavor

    def of(self, expr: ast.expr, depth: int = 0) -> int | None:
        if depth > 8:
            return None
        if isinstance(expr, ast.Call):
            return self.of(expr.func, depth + 1)
        if isinstance(expr, ast.Name) and expr.id in self.names:
            return self.names[expr.id]
        if isinstance(expr, ast.Name) and expr.id in self.module and reads_global(self.ctx, expr):
            return self.module[expr.id]
        if isinstance(expr, (ast.Attribute, ast.Name)):
            raw = raw_target(self.ctx, expr)
            if raw is not None and self.ctx.resolve(expr) is not None:
                return flavor_of_target(raw, self.ctx.keras_version)
        return None


@detector("TFL604")
def mixed_keras(ctx: BlockContext) -> None:
    if len(_possible_flavors(ctx)) < 2:
        return
    flavors = _Flavors(ctx)
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _METHODS_TAKING_KERAS_OBJECTS:
            expected = flavors.of(func.value) if isinstance(func.value, ast.Name) else None
        else:
            expected = flavors.of(func)
        if expected is None:
            continue
        for arg in _keras_arguments(call):
            found = flavors.of(arg)
            if found is not None and found != expected:
                _report_mix(ctx, arg, found, expected)
    for cls, _kind in ctx.keras_classes():
        expected = next((f for f in map(flavors.of, cls.bases) if f is not None), None)
        if expected is None:
            continue
        for call in ctx.index.nodes(ast.Call):
            if ctx.index.enclosing_class(call) is not cls:
                continue
            name = ctx.resolve(call.func)
            if name is None or not name.startswith("keras."):
                continue
            found = flavors.of(call.func)
            if found is not None and found != expected:
                _report_mix(ctx, call, found, expected)


def _keras_arguments(call: ast.Call) -> Iterator[ast.expr]:
    for arg in [*call.args, *(kw.value for kw in call.keywords)]:
        if isinstance(arg, (ast.List, ast.Tuple)):
            yield from arg.elts
        elif isinstance(arg, ast.Dict):
            yield from (v for v in arg.values if v is not None)
        else:
            yield arg


def _report_mix(ctx: BlockContext, node: ast.expr, found: int, expected: int) -> None:
    text = ctx.source(node).split("\n", 1)[0]
    if len(text) > 60:
        text = text[:57] + "..."
    ctx.report(
        "TFL604",
        node,
        args={"name": text, "this": FLAVOR_LABELS[found], "other": FLAVOR_LABELS[expected]},
    )


# -- TFL605 ----------------------------------------------------------------------------------

# TensorFlow functions that accept a KerasTensor (they never build a TensorFlow op from it).
_ACCEPTS_KERAS_TENSORS = ("tensorflow.nest.", "tensorflow.print", "tensorflow.is_tensor")

# TensorFlow op -> keras.ops function taking the same positional arguments.
KERAS_OPS = {
    **dict.fromkeys(("reduce_sum", "math.reduce_sum"), "sum"),
    **dict.fromkeys(("reduce_mean", "math.reduce_mean"), "mean"),
    **dict.fromkeys(("reduce_max", "math.reduce_max"), "max"),
    **dict.fromkeys(("reduce_min", "math.reduce_min"), "min"),
    **dict.fromkeys(("reduce_prod", "math.reduce_prod"), "prod"),
    "concat": "concatenate",
    **dict.fromkeys(("matmul", "linalg.matmul"), "matmul"),
    **dict.fromkeys(("nn.relu",), "relu"),
    **dict.fromkeys(("sigmoid", "math.sigmoid", "nn.sigmoid"), "sigmoid"),
    **dict.fromkeys(("tanh", "math.tanh", "nn.tanh"), "tanh"),
    **dict.fromkeys(("exp", "math.exp"), "exp"),
    "math.log": "log",
    **dict.fromkeys(("sqrt", "math.sqrt"), "sqrt"),
    **dict.fromkeys(("square", "math.square"), "square"),
    **dict.fromkeys(("abs", "math.abs"), "abs"),
    **dict.fromkeys(("maximum", "math.maximum"), "maximum"),
    **dict.fromkeys(("minimum", "math.minimum"), "minimum"),
    **dict.fromkeys(("add", "math.add"), "add"),
    **dict.fromkeys(("subtract", "math.subtract"), "subtract"),
    **dict.fromkeys(("multiply", "math.multiply"), "multiply"),
    **dict.fromkeys(("nn.softmax", "math.softmax"), "softmax"),
    "expand_dims": "expand_dims",
    "squeeze": "squeeze",
    "reshape": "reshape",
    "transpose": "transpose",
    "stack": "stack",
    "tile": "tile",
    "cast": "cast",
    "one_hot": "one_hot",
}
_FIX_KEYWORDS = frozenset({"axis", "keepdims"})


@detector("TFL605")
def tf_op_on_keras_input(ctx: BlockContext) -> None:
    calls = ctx.index.nodes(ast.Call)
    if not calls:
        return  # only calls are reported
    symbolic = _symbolic_names(ctx)
    if symbolic is None:
        return
    module_symbolic = _module_symbolic(ctx)
    if not module_symbolic and not any(symbolic.values()):
        return
    candidates = set(module_symbolic).union(*symbolic.values())
    mentioning = ctx.index.mentioning(candidates)
    for call in calls:
        # Cheap filter first: a symbolic name must appear among the arguments.
        if call not in mentioning or not any(arg in mentioning for arg in _call_inputs(call)):
            continue
        name = ctx.resolve(call.func)
        if (
            name is None
            or not name.startswith("tensorflow.")
            or name.startswith(_ACCEPTS_KERAS_TENSORS)
        ):
            continue
        names = symbolic.get(ctx.index.enclosing_function(call), set())
        hit = next(
            (a for a in _call_inputs(call) if _is_symbolic(ctx, a, names, module_symbolic)),
            None,
        )
        if hit is None:
            continue
        short = name[len("tensorflow.") :]
        ctx.report(
            "TFL605",
            call,
            args={"name": ctx.source(call.func), "tensor": ctx.source(hit)},
            fix=_ops_fix(ctx, call, short),
        )


def _input_names(summary: ModuleSummary) -> list[str]:
    return ["Input"] + [
        local for local, target in summary.imports.items() if target.endswith(".Input")
    ]


def _symbolic_names(ctx: BlockContext) -> dict[ast.AST | None, set[str]] | None:
    """Per function (None: module level), the names that hold symbolic Keras tensors; None
    when nothing in the block can hold one."""
    out: dict[ast.AST | None, set[str]] = {}
    module_symbolic = _module_symbolic(ctx)
    input_names = ctx.summary.derived("migration_keras.input_names", _input_names)
    if not module_symbolic and not any(ctx.contains(name) for name in input_names):
        return None  # no keras.Input in sight: nothing can be symbolic
    statements: list[ast.Assign | ast.AnnAssign] = [
        *ctx.index.nodes(ast.Assign),
        *ctx.index.nodes(ast.AnnAssign),
    ]
    statements.sort(key=lambda s: (s.lineno, s.col_offset))
    # A symbolic tensor starts at a keras.Input(...) call or at a read of a module name that
    # holds one; every other value is symbolic only through those.  Without either, every name
    # stays plain (and nothing is reported).
    if not _reads_module_symbolic(ctx, module_symbolic) and not any(
        _makes_input(ctx, stmt.value) for stmt in statements if stmt.value is not None
    ):
        return None
    for stmt in statements:
        if stmt.value is None:
            continue
        scope = ctx.index.enclosing_function(stmt)
        names = out.setdefault(scope, set())
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        flows = _produces_symbolic(ctx, stmt.value, names, module_symbolic)
        for target in targets:
            for node in _target_names(target):
                if isinstance(node, ast.Name):
                    if flows:
                        names.add(node.id)
                    else:
                        names.discard(node.id)
    return out


def _target_names(target: ast.expr) -> list[ast.AST] | Iterator[ast.AST]:
    """The nodes of an assignment target to look for names in (``self.x``: just ``self``)."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return [target.value]
    return ast.walk(target)


def _reads_module_symbolic(ctx: BlockContext, module: frozenset[str]) -> bool:
    """Does the block read a module-level name holding a symbolic tensor?"""
    return bool(module) and any(
        reads_global(ctx, node) for node in ctx.index.nodes(ast.Name) if node.id in module
    )


def _makes_input(ctx: BlockContext, expr: ast.expr) -> bool:
    """``keras.Input(...)`` (under any alias), the test :func:`_produces_symbolic` makes first."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    maybe_input = last == "Input" or isinstance(func, ast.Name)
    return maybe_input and ctx.resolve(func) == "keras.Input"


def _produces_symbolic(
    ctx: BlockContext, expr: ast.expr, names: set[str], module: frozenset[str]
) -> bool:
    if not isinstance(expr, ast.Call):
        return _is_symbolic(ctx, expr, names, module)
    if _makes_input(ctx, expr):
        return True
    func = expr.func
    if not any(_is_symbolic(ctx, a, names, module) for a in _call_inputs(expr)):
        return False
    if isinstance(func, ast.Call):
        return True  # a layer applied to a symbolic tensor
    name = ctx.resolve(func)
    if name is not None and name.startswith("tensorflow."):
        return False  # reported where it happens; its result is not followed
    # keras.Model(inputs, outputs) is a model, not a tensor.
    return not _is_constructor_name(dotted(func))


def _is_symbolic(
    ctx: BlockContext, expr: ast.expr, names: set[str], module: frozenset[str]
) -> bool:
    if isinstance(expr, ast.Name):
        if expr.id in names:
            return True
        # Built by earlier top-level statements (each its own block).
        return expr.id in module and reads_global(ctx, expr)
    if isinstance(expr, ast.BinOp):
        return _is_symbolic(ctx, expr.left, names, module) or _is_symbolic(
            ctx, expr.right, names, module
        )
    if isinstance(expr, (ast.UnaryOp, ast.Subscript, ast.Starred)):
        inner = expr.operand if isinstance(expr, ast.UnaryOp) else expr.value
        return _is_symbolic(ctx, inner, names, module)
    return False


def _call_inputs(call: ast.Call) -> Iterator[ast.expr]:
    for arg in [*call.args, *(kw.value for kw in call.keywords)]:
        if isinstance(arg, (ast.List, ast.Tuple)):
            yield from arg.elts
        else:
            yield arg


def _ops_fix(ctx: BlockContext, call: ast.Call, short: str) -> Fix | None:
    op = KERAS_OPS.get(short)
    if op is None or any(kw.arg not in _FIX_KEYWORDS for kw in call.keywords):
        return None
    keras_name = ctx.alias_for("keras")
    if keras_name is not None:
        prefix = keras_name
    else:
        tf_name = ctx.alias_for("tensorflow")
        if tf_name is None:
            return None
        prefix = f"{tf_name}.keras"
    new = f"{prefix}.ops.{op}"
    return ctx.fix(ctx.replace(call.func, new), safe=False, new=new)
