"""What one block contributes to the module summary.

Facts are computed from a block's own text only (no other block is consulted), so they can be
cached by content and reused when other blocks change.  Names stay unresolved dotted strings
here; :mod:`tflsp.analysis.summary` resolves them once every block's imports are known.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import canonical, dotted, import_bindings
from tflsp.analysis.registry import module_facts
from tflsp.analysis.semantic.block import EMPTY_SEMANTICS, BlockSemantics, SemanticFacts

# Methods Keras runs as a graph during fit/evaluate/predict.
KERAS_GRAPH_METHODS = frozenset({"call", "train_step", "test_step", "predict_step", "compute_loss"})
# Dataset methods whose function argument is traced once into a graph.
DATASET_FUNCTION_METHODS = frozenset({"map", "filter", "flat_map", "interleave", "reduce", "scan"})
# Methods only tf.data datasets have (pandas/NumPy/lists have none of them).
DATASET_ONLY_METHODS = frozenset(
    {
        "batch",
        "shuffle",
        "prefetch",
        "repeat",
        "cache",
        "padded_batch",
        "unbatch",
        "shard",
        "flat_map",
        "interleave",
        "ragged_batch",
        "rebatch",
        "bucket_by_sequence_length",
        "with_options",
        "cardinality",
        "element_spec",
    }
)
_DATASET_TEXT_RE = re.compile(
    r"Dataset\b|_dataset_from_|tfds\.load|TFRecordDataset|TextLineDataset|FixedLengthRecordDataset"
)
_DATASET_NAME_RE = re.compile(r"^(?:ds|dataset|datasets)$|_ds$|_dataset$|^ds_|^dataset_", re.I)


@dataclass(frozen=True, slots=True)
class FunctionFacts:
    id: str
    name: str
    class_id: str | None  # the class when this is a method
    parent_id: str | None  # the enclosing function when nested
    decorators: tuple[
        str, ...
    ]  # dotted texts, calls stripped: "@tf.function(x=1)" -> "tf.function"
    calls: frozenset[str]  # "helper", "self.step", "cls.make"
    returns: frozenset[str]  # returned names and the callees of returned calls
    line: int


@dataclass(frozen=True, slots=True)
class ClassFacts:
    id: str
    name: str
    bases: tuple[str, ...]
    decorators: tuple[str, ...]
    methods: frozenset[str]
    line: int


@dataclass(frozen=True, slots=True)
class RootRef:
    """``target`` runs as a graph because of ``via``.

    ``via`` is a dotted callee to resolve (``tf.function``) or a fixed marker: ``@dataset``
    (a Dataset.map-style argument) or ``@compile`` (a loss or metric given to ``compile``).
    """

    via: str
    target: str
    scope: str | None  # enclosing function id (for nested names) or class id (for self.x)
    class_id: str | None


@dataclass(frozen=True, slots=True)
class BlockFacts:
    imports: tuple[tuple[str, str], ...]
    functions: tuple[FunctionFacts, ...]
    classes: tuple[ClassFacts, ...]
    roots: tuple[RootRef, ...]
    dataset_names: frozenset[str]
    assigned_globals: tuple[str, ...]
    called: frozenset[str]  # dotted callees, and ".method" for method calls on any receiver
    # ``name = callee(...)`` anywhere in the block: (name, dotted callee).  Lets detectors ask
    # what a name holds ("model" is a local Keras model, "step" is a tf.function).
    assignments: tuple[tuple[str, str], ...] = ()
    # Facts registered by detector families (``registry.module_fact``): (name, value) pairs.
    extra: tuple[tuple[str, object], ...] = ()
    # What the block tells the semantic model (bindings, functions, classes, calls).
    semantic: SemanticFacts = EMPTY_SEMANTICS


EMPTY_FACTS = BlockFacts((), (), (), (), frozenset(), (), frozenset())


def semantics_of(index: NodeIndex) -> BlockSemantics:
    """The block's flow, terms and semantic facts, built once per block (cached on its index)."""
    found = index.memo.get("semantics")
    if found is None:
        found = index.memo["semantics"] = BlockSemantics(index)
    return found


def decorator_text(node: ast.expr) -> str | None:
    return dotted(node.func if isinstance(node, ast.Call) else node)


# ``via`` of a root whose receiver is a plain name: a Dataset.map argument if that name holds a
# dataset anywhere in the module.
DATASET_IF_PREFIX = "@dataset-if:"

# A dotted text that was already resolved against function-local imports starts with "=".
RESOLVED_PREFIX = "="


def _local_bindings(
    index: NodeIndex, node: ast.AST, cache: dict[ast.AST, dict[str, str]]
) -> dict[str, str]:
    """Names bound by ``import`` statements inside the functions enclosing ``node``."""
    out: dict[str, str] = {}
    for scope in index.ancestors(node):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bindings = cache.get(scope)
            if bindings is None:
                bindings = {}
                for stmt in ast.walk(scope):
                    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                        bindings.update(import_bindings(stmt))
                cache[scope] = bindings
            for name, target in bindings.items():
                out.setdefault(name, target)
    return out


def _qualify(text: str, local: dict[str, str]) -> str:
    head, _, rest = text.partition(".")
    target = local.get(head)
    if target is None:
        return text
    return RESOLVED_PREFIX + canonical(f"{target}.{rest}" if rest else target)


def looks_like_dataset(expr: ast.AST, known: frozenset[str] | set[str]) -> bool:
    """Syntactic guess that ``expr`` is a tf.data Dataset.

    True for chains built from a Dataset constructor, chains using a dataset-only method, and
    names assigned from such expressions (``known``) or named like one (``train_ds``).
    """
    node: ast.AST = expr
    while True:
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in DATASET_ONLY_METHODS:
                return True
            text = dotted(func)
            if text is not None and _DATASET_TEXT_RE.search(text):
                return True
            node = func
        elif isinstance(node, ast.Attribute):
            if node.attr in DATASET_ONLY_METHODS:
                return True
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id in known or _DATASET_NAME_RE.search(node.id) is not None
        else:
            return False


def _function_arg(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    for kw in call.keywords:
        if kw.arg in ("map_func", "predicate", "func", "reduce_func", "scan_func"):
            return kw.value
    return None


def _calls_and_returns(
    index: NodeIndex,
) -> tuple[dict[ast.AST, set[str]], dict[ast.AST, list[tuple[str, str]]]]:
    """For every function: the local-looking callees and the returned names/callees inside it
    (nested functions included), from one pass over the block's calls and returns."""
    calls: dict[ast.AST, set[str]] = {}
    returns: dict[ast.AST, list[tuple[str, str]]] = {}
    function_types = (ast.FunctionDef, ast.AsyncFunctionDef)
    for call in index.nodes(ast.Call):
        text = dotted(call.func)
        if text is None or not (text.count(".") == 0 or text.startswith(("self.", "cls."))):
            continue
        for scope in index.ancestors(call):
            if isinstance(scope, function_types):
                calls.setdefault(scope, set()).add(text)
    for ret in index.nodes(ast.Return):
        value = ret.value
        if isinstance(value, ast.Name):
            item = ("name", value.id)
        elif isinstance(value, ast.Call):
            text = dotted(value.func)
            if not text:
                continue
            item = ("call", text)
        else:
            continue
        for scope in index.ancestors(ret):
            if isinstance(scope, function_types):
                returns.setdefault(scope, []).append(item)
    return calls, returns


def extract_facts(index: NodeIndex) -> BlockFacts:
    tree = index.tree
    # Most blocks have no import at all: then no walk below can find one.
    has_imports = bool(index.nodes(ast.Import) or index.nodes(ast.ImportFrom))
    imports: list[tuple[str, str]] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            imports.extend(import_bindings(stmt))
        elif has_imports and isinstance(stmt, (ast.If, ast.Try)):
            # ``try: import tf_keras as keras`` / ``if TYPE_CHECKING:`` imports still bind names.
            for node in ast.walk(stmt):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    imports.extend(import_bindings(node))

    dataset_names: set[str] = set()
    assignments: list[tuple[str, str]] = []
    for assign in index.nodes(ast.Assign):
        names = [t.id for t in assign.targets if isinstance(t, ast.Name)]
        if looks_like_dataset(assign.value, dataset_names):
            dataset_names.update(names)
        if isinstance(assign.value, ast.Call):
            callee = dotted(assign.value.func)
            if callee is not None:
                assignments.extend((name, callee) for name in names)

    local_cache: dict[ast.AST, dict[str, str]] = {}
    calls_in, returns_in = _calls_and_returns(index)
    functions: list[FunctionFacts] = []
    for fn in index.functions():
        local = _local_bindings(index, fn, local_cache) if has_imports else {}
        fid = index.scope_id(fn)
        parent_scope = index.enclosing_scope(fn)
        class_id = index.scope_id(parent_scope) if isinstance(parent_scope, ast.ClassDef) else None
        parent_fn = index.enclosing_function(fn)
        parent_id = (
            index.scope_id(parent_fn)
            if isinstance(parent_fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            else None
        )
        calls = calls_in.get(fn, set())
        returns: set[str] = set()
        for kind, returned in returns_in.get(fn, ()):
            returns.add(returned if kind == "name" else _qualify(returned, local))
        decorators = tuple(
            _qualify(t, local) for t in (decorator_text(d) for d in fn.decorator_list) if t
        )
        functions.append(
            FunctionFacts(
                fid,
                fn.name,
                class_id,
                parent_id,
                decorators,
                frozenset(calls),
                frozenset(returns),
                fn.lineno,
            )
        )

    classes: list[ClassFacts] = []
    for cls in index.nodes(ast.ClassDef):
        bases = tuple(t for t in (dotted(b) for b in cls.bases) if t)
        methods = frozenset(
            s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        )
        decorators = tuple(t for t in (decorator_text(d) for d in cls.decorator_list) if t)
        classes.append(
            ClassFacts(index.scope_id(cls), cls.name, bases, decorators, methods, cls.lineno)
        )

    roots: list[RootRef] = []
    called: set[str] = set()
    for call in index.nodes(ast.Call):
        func = call.func
        text = dotted(func)
        if text is not None:
            called.add(text)
        if isinstance(func, ast.Attribute):
            called.add("." + func.attr)
        scope_node = index.enclosing_function(call)
        scope = (
            index.scope_id(scope_node)
            if isinstance(scope_node, (ast.FunctionDef, ast.AsyncFunctionDef))
            else None
        )
        cls_node = index.enclosing_class(call)
        class_id = index.scope_id(cls_node) if cls_node is not None else None
        if isinstance(func, ast.Attribute) and func.attr in DATASET_FUNCTION_METHODS:
            arg = _function_arg(call)
            target = dotted(arg) if arg is not None else None
            if target and looks_like_dataset(func.value, dataset_names):
                roots.append(RootRef("@dataset", target, scope, class_id))
            elif target and isinstance(func.value, ast.Name):
                # ``files.map(load)`` where ``files`` was made in another block: the summary
                # decides once it knows every block's dataset names.
                roots.append(RootRef(DATASET_IF_PREFIX + func.value.id, target, scope, class_id))
        elif isinstance(func, ast.Attribute) and func.attr == "compile":
            for kw in call.keywords:
                if kw.arg in ("loss", "metrics", "weighted_metrics"):
                    values = (
                        kw.value.elts if isinstance(kw.value, (ast.List, ast.Tuple)) else [kw.value]
                    )
                    if isinstance(kw.value, ast.Dict):
                        values = list(kw.value.values)
                    for value in values:
                        target = dotted(value)
                        if target and isinstance(value, ast.Name):
                            roots.append(RootRef("@compile", target, scope, class_id))
        elif text is not None and call.args:
            target = dotted(call.args[0])
            if target is not None:
                # Resolved later: only kept when ``text`` turns out to be tf.function.
                local = _local_bindings(index, call, local_cache) if has_imports else {}
                via = _qualify(text, local)
                roots.append(RootRef(via, target, scope, class_id))

    assigned: list[str] = []
    for stmt in tree.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            targets = [stmt.target]
        elif isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
            for node in ast.walk(stmt):
                if isinstance(node, ast.Assign):
                    targets.extend(node.targets)
                elif (
                    isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None
                ) or isinstance(node, (ast.For, ast.AsyncFor)):
                    targets.append(node.target)
        for target_expr in targets:
            for node in ast.walk(target_expr):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    assigned.append(node.id)
    # ``global x`` writes inside functions reassign module names too.
    for glob in index.nodes(ast.Global):
        if index.enclosing_function(glob) is not None:
            for name in glob.names:
                assigned.append(name)

    return BlockFacts(
        imports=tuple(imports),
        functions=tuple(functions),
        classes=tuple(classes),
        roots=tuple(roots),
        dataset_names=frozenset(dataset_names),
        assigned_globals=tuple(assigned),
        called=frozenset(called),
        assignments=tuple(assignments),
        extra=tuple((fact.name, fact.extract(index)) for fact in module_facts()),
        semantic=semantics_of(index).facts,
    )
