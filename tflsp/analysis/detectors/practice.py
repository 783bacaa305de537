"""Practice family (TFL701): a full reduction broadcast back against a batch.

``tf.reduce_sum(x)`` with no axis is the normal way to get a scalar loss, so the rule looks
for the case that silently changes results: the input is known to have rank 2 or more (a
batch of rows), and the scalar is then combined element-wise with that batch again, as in
``x / tf.reduce_sum(x)`` where a per-row ``axis=-1`` was meant.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable, Sequence
from functools import partial

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.graph_support import name_values
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted, resolve_dotted
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.summary import ModuleSummary


def _names(prefix: str, text: str) -> set[str]:
    return {f"{prefix}{name}" for name in text.split()}


_TF_REDUCE = (
    "reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_std reduce_variance "
    "reduce_logsumexp reduce_euclidean_norm"
)
REDUCTIONS = frozenset(
    _names("tensorflow.", _TF_REDUCE)
    | _names("tensorflow.math.", _TF_REDUCE)
    | _names("keras.ops.", "sum mean max min prod std var logsumexp")
)
_REDUCTION_NAMES = frozenset(name.rpartition(".")[2] for name in REDUCTIONS)

# Calls whose result has rank >= 2 whatever their arguments.
_MATRIX_MAKERS = frozenset(
    {
        "tensorflow.matmul",
        "tensorflow.linalg.matmul",
        "keras.ops.matmul",
        "tensorflow.one_hot",
        "keras.ops.one_hot",
    }
)
# Calls that take a shape first (or as ``shape=``/``dims=``).
_SHAPED = frozenset(
    _names("tensorflow.", "zeros ones fill")
    | _names("tensorflow.random.", "uniform normal truncated_normal")
    | _names("keras.random.", "uniform normal truncated_normal")
    | _names("keras.ops.", "zeros ones full")
)
_FROM_VALUES = frozenset(
    {
        "tensorflow.constant",
        "tensorflow.convert_to_tensor",
        "tensorflow.Variable",
        "keras.ops.convert_to_tensor",
        "keras.Variable",
    }
)
_RESHAPES = frozenset({"tensorflow.reshape", "keras.ops.reshape"})
# Element-wise functions: the result has the rank of the first argument.
_ELEMENTWISE_LAST = frozenset(
    _names(
        "",
        "exp log log1p sqrt square abs negative sigmoid tanh relu relu6 elu selu gelu softplus "
        "softmax log_softmax cast clip_by_value maximum minimum pow round floor ceil sign",
    )
)
_ELEMENTWISE_MODULES = ("tensorflow.", "tensorflow.math.", "tensorflow.nn.", "keras.ops.")
_BROADCAST_OPS = (ast.Div, ast.Sub, ast.Add, ast.Mult, ast.FloorDiv)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _literal_rank(node: ast.AST | None) -> int:
    rank = 0
    while isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        rank += 1
        node = node.elts[0]
    return rank


def _shape_length(node: ast.AST | None) -> int:
    return len(node.elts) if isinstance(node, (ast.List, ast.Tuple)) else 0


def _argument(call: ast.Call, position: int, *names: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    for kw in call.keywords:
        if kw.arg in names:
            return kw.value
    return None


Resolver = Callable[[ast.expr], "str | None"]
# Called with the Ranks that asks (not a closure over it: that would be a reference cycle).
NameRank = Callable[["Ranks", ast.Name, int], bool]


class Ranks:
    """Answers "does this expression have two or more axes?"; unknown counts as no.

    The same rules run in a block (names resolved by the block context) and in the module
    fact below (names resolved from the module's imports), so module-level tensors defined in
    one block are known in the others.
    """

    def __init__(
        self,
        resolve: Resolver,
        name_rank: NameRank,
        keras_callable: Callable[[ast.Name], bool],
    ) -> None:
        self._resolve = resolve
        self._name_rank = name_rank
        self._keras_callable = keras_callable  # does the name hold a Keras layer or model?

    def batched(self, expr: ast.AST, depth: int = 0) -> bool:
        if depth > 6:
            return False
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        if isinstance(expr, ast.Name):
            return self._name_rank(self, expr, depth + 1)
        if isinstance(expr, ast.BinOp):
            return self.batched(expr.left, depth + 1) or self.batched(expr.right, depth + 1)
        if isinstance(expr, ast.UnaryOp):
            return self.batched(expr.operand, depth + 1)
        return False

    def _call(self, call: ast.Call, depth: int) -> bool:
        name = self._resolve(call.func)
        if name is None:
            return self._model_call(call)
        if name in _MATRIX_MAKERS:
            return True
        if name in _SHAPED:
            return _shape_length(_argument(call, 0, "shape", "dims")) >= 2
        if name in _RESHAPES:
            return _shape_length(_argument(call, 1, "shape", "newshape")) >= 2
        if name in _FROM_VALUES:
            value = _argument(call, 0, "value", "initial_value", "x")
            shape = next((kw.value for kw in call.keywords if kw.arg == "shape"), None)
            return _literal_rank(value) >= 2 or _shape_length(shape) >= 2
        if name.startswith(_ELEMENTWISE_MODULES) and name.rpartition(".")[2] in _ELEMENTWISE_LAST:
            first = _argument(call, 0, "x", "features", "logits", "t")
            return first is not None and self.batched(first, depth + 1)
        return False

    def _model_call(self, call: ast.Call) -> bool:
        """``model(x)`` or ``layer(x)`` on a name holding a Keras model or layer: a batch."""
        func = call.func
        return isinstance(func, ast.Name) and self._keras_callable(func)


# -- module fact: module-level batches, and where module-level names meet them ------------
MODULE_TENSORS = "practice.module_tensors"
_BATCH = "*"  # marks "the other operand is a batch" in the broadcast table


def _extract_module_tensors(index: NodeIndex) -> Hashable:
    """Module-level ``name = <value>`` sources, and ``name <op> other`` pairs."""
    values: list[tuple[str, str]] = []
    for stmt in index.tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(
            stmt.value, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Name)
        ):
            text = ast.unparse(stmt.value)
            values.extend((t.id, text) for t in stmt.targets if isinstance(t, ast.Name))
    pairs: list[tuple[str, str]] = []
    if all(isinstance(stmt, _DEFS) for stmt in index.tree.body):
        return (tuple(values), ())  # nothing runs at module level in a def or class block
    for node in index.nodes(ast.BinOp):
        if not isinstance(node.op, _BROADCAST_OPS) or index.enclosing_scope(node) is not None:
            continue
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, ast.Name):
                pairs.append((side.id, ast.unparse(other)))
    return (tuple(values), tuple(pairs))


def _parse(text: str) -> ast.expr:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return ast.Constant(None)


_TABLE = f"{MODULE_TENSORS}.table"  # declared input: module name -> texts assigned to it


def _combine_module_tensors(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """``(batched names, broadcasts)``: module names known to hold a batch, and
    ``(name, operand)`` for module-level ``name <op> operand`` where the operand is a batch
    (``*``) or any expression (its ``ast.dump``)."""
    texts: dict[str, list[str]] = {}
    pairs: list[tuple[str, str]] = []
    for value in values:
        if isinstance(value, tuple):
            for name, text in value[0]:
                texts.setdefault(name, []).append(text)
            pairs.extend(value[1])
    table = {name: tuple(found) for name, found in texts.items()}
    # Typing one statement changes one name's entry: the answers per name and per operand
    # are remembered with what they read (entries of this table, names through the model).
    summary.declare(_TABLE, table)
    ranks = Ranks(
        partial(_resolve, summary),
        partial(_name_rank, summary, table),
        partial(_keras_callable, summary),
    )
    batched = frozenset(name for name in table if _rank_of(summary, table, ranks, name, 0))
    broadcasts: set[tuple[str, str]] = set()
    for name, text in pairs:
        dumped, is_batch = summary.remember(
            (_TABLE, "operand", text), partial(_operand, summary, ranks, text), ("", False)
        )
        broadcasts.add((name, dumped))
        if is_batch:
            broadcasts.add((name, _BATCH))
    return (batched, frozenset(broadcasts))


def _parsed(summary: ModuleSummary, text: str) -> ast.expr:
    # Parsed once per text while it stays in the module (nothing read: valid for good).
    unparsed: ast.expr = ast.Constant(None)
    return summary.remember((_TABLE, "parse", text), partial(_parse, text), unparsed)


def _operand(summary: ModuleSummary, ranks: Ranks, text: str) -> tuple[str, bool]:
    other = _parsed(summary, text)
    return ast.dump(other), ranks.batched(other)


def _resolve(summary: ModuleSummary, expr: ast.expr) -> str | None:
    text = dotted(expr)
    if text is None:
        return None
    summary.reads_imports()
    return resolve_dotted(text, summary.imports)


def _name_rank(
    summary: ModuleSummary,
    table: dict[str, tuple[str, ...]],
    ranks: Ranks,
    node: ast.Name,
    depth: int,
) -> bool:
    return _rank_of(summary, table, ranks, node.id, depth)


def _rank_of(
    summary: ModuleSummary, table: dict[str, tuple[str, ...]], ranks: Ranks, name: str, depth: int
) -> bool:
    """Do all the values assigned to ``name`` have two or more axes (at ``depth``: the rules
    give up past a depth)?"""
    return summary.remember(
        (_TABLE, "rank", name, depth),
        partial(_compute_rank, summary, table, ranks, name, depth),
        False,
    )


def _compute_rank(
    summary: ModuleSummary, table: dict[str, tuple[str, ...]], ranks: Ranks, name: str, depth: int
) -> bool:
    summary.touch((_TABLE, name))
    found = table.get(name, ())
    return bool(found) and all(ranks.batched(_parsed(summary, text), depth) for text in found)


def _keras_callable(summary: ModuleSummary, node: ast.Name) -> bool:
    model = summary.model
    return model is not None and v.all_of(
        model.final(node.id),
        lambda x: x.kind == v.INSTANCE and x.base in (v.LAYER, v.MODEL),
    )


module_fact(MODULE_TENSORS, _extract_module_tensors, _combine_module_tensors, reads_values=True)


def _module_tensors(ctx: BlockContext) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    fact = ctx.summary.extra.get(MODULE_TENSORS)
    if isinstance(fact, tuple) and len(fact) == 2:
        return fact[0], fact[1]
    return frozenset(), frozenset()


def block_ranks(ctx: BlockContext) -> Ranks:
    module_names = _module_tensors(ctx)[0]

    def name_rank(ranks: Ranks, node: ast.Name, depth: int) -> bool:
        values = name_values(ctx, node, node.id)
        if values is None:
            return node.id in module_names
        return bool(values) and all(ranks.batched(v, depth) for v in values)

    def keras_callable(node: ast.Name) -> bool:
        return ctx.is_instance_of(node, "keras_object")

    ranks = Ranks(ctx.resolve, name_rank, keras_callable)
    return ranks


def _axis_missing(call: ast.Call) -> bool:
    return len(call.args) < 2 and all(kw.arg not in ("axis", None) for kw in call.keywords)


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _broadcast_against(ctx: BlockContext, ranks: Ranks, node: ast.AST, reduced: ast.expr) -> bool:
    """``node`` sits in ``a <op> node`` whose other side is the reduced input or a batch."""
    parent = ctx.index.parent(node)
    if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, _BROADCAST_OPS)):
        return False
    other = parent.left if parent.right is node else parent.right
    return _same(other, reduced) or ranks.batched(other)


@detector("TFL701")
def reduction_without_axis(ctx: BlockContext) -> None:
    ranks: Ranks | None = None
    for call in calls_of(ctx, _REDUCTION_NAMES, _REDUCTION_NAMES):
        func = call.func
        if not call.args or not _axis_missing(call):
            continue
        if ctx.resolve(func) not in REDUCTIONS:
            continue
        reduced = call.args[0]
        ranks = ranks or block_ranks(ctx)
        if not ranks.batched(reduced):
            continue
        scope = ctx.index.enclosing_function(call)
        used = _broadcast_against(ctx, ranks, call, reduced)
        if not used:
            parent = ctx.index.parent(call)
            if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
                target = parent.targets[0]
                if isinstance(target, ast.Name):
                    used = _name_broadcast(ctx, ranks, target.id, reduced, scope, parent)
        if used:
            ctx.report(
                "TFL701",
                call,
                args={"call": ctx.source(func), "value": ctx.source(reduced)},
            )


def _name_broadcast(
    ctx: BlockContext,
    ranks: Ranks,
    name: str,
    reduced: ast.expr,
    scope: ast.AST | None,
    assign: ast.Assign,
) -> bool:
    """``total = reduce(x)`` followed, in the same function, by ``x / total``."""
    if scope is None:  # module level: the uses may sit in other blocks
        broadcasts = _module_tensors(ctx)[1]
        return (name, _BATCH) in broadcasts or (name, ast.dump(reduced)) in broadcasts
    for node in ctx.index.nodes(ast.Name):
        if (
            node.id == name
            and isinstance(node.ctx, ast.Load)
            and node.lineno > assign.lineno
            and ctx.index.enclosing_function(node) is scope
            and _broadcast_against(ctx, ranks, node, reduced)
        ):
            return True
    return False
