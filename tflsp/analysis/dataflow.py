"""Follow tf.data datasets through method chains and straight-line reassignments.

Statements are compiled into a small hashable program (:func:`compile_body`) that keeps only
what matters for datasets.  One interpreter (:mod:`tflsp.analysis.dataflow_run`) runs such
programs: the module summary replays the programs of all top-level blocks in order (each
module-level statement is its own block), and detectors replay the body of one function.
Branches and loops run on a copy of the state and forget the names they bind.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tflsp.analysis.names import dotted
from tflsp.analysis.semantic.evaluate import DATASET_METHODS
from tflsp.analysis.semantic.terms import Term, TermBuilder

BATCH_METHODS = frozenset({"batch", "padded_batch", "ragged_batch"})
# Methods that keep the number of elements (or only lower it: an upper bound survives).
SIZE_KEEPING_METHODS = frozenset(
    {
        "cache",
        "enumerate",
        "filter",
        "ignore_errors",
        "map",
        "prefetch",
        "shuffle",
        "snapshot",
        "take_while",
        "unique",
        "with_options",
    }
)
# Wrappers that iterate their argument as it is.
_TRANSPARENT_CALLS = frozenset({"iter", "enumerate"})
_TRANSPARENT_METHODS = frozenset({"as_numpy_iterator", "__iter__"})
_ARRAY_METHODS = frozenset({"astype", "copy"})  # keep an array's first dimension
# Static first dimension of array constructors: ``np.arange(6)``, ``np.zeros((6, 2))``.
_ARRAY_SHAPE_FUNCS = frozenset({"zeros", "ones", "empty", "full", "rand", "randn", "normal"})
_ARRAY_SIZE_KWARGS = ("shape", "size")
_EAGER_WRAPPERS = ("py_function", "numpy_function", "py_func")
_TRY_TYPES: tuple[type, ...] = tuple(
    t for t in (ast.Try, getattr(ast, "TryStar", None)) if isinstance(t, type)
)

Site = int  # index of a dataset call in its program's site list
# Keywords only tf.data's methods take: ``x.shuffle(n, reshuffle_each_iteration=True)`` is a
# dataset, whatever ``x`` is called.
_TF_DATA_KEYWORDS = frozenset(
    {"reshuffle_each_iteration", "drop_remainder", "num_parallel_calls", "deterministic"}
)


# -- the program ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ref:
    name: str
    # What the name holds from outside the program (the semantic model decides whether that
    # is a dataset); None when no term is known.
    term: Term | None = None


@dataclass(frozen=True, slots=True)
class Opaque:
    """A call we cannot follow (``load_data()``); ``term``: its value, for the semantic model
    to say whether it is a dataset (None: not one we know)."""

    term: Term | None
    site: Site


@dataclass(frozen=True, slots=True)
class Source:
    """``Dataset.range(5)``, ``from_tensor_slices(x)``, ``TFRecordDataset(...)``."""

    size: int | None
    size_of: str | None  # the array (``from_tensor_slices(x)``) or count (``range(n)``) bound here
    site: Site


@dataclass(frozen=True, slots=True)
class FnInfo:
    """A function given to ``map``: a named function or what a lambda calls."""

    name: str | None
    callees: tuple[str, ...] = ()
    eager_refs: tuple[str, ...] = ()  # functions handed to tf.py_function/numpy_function


@dataclass(frozen=True, slots=True)
class Method:
    base: Expr
    name: str
    site: Site
    number: int | str | None = None  # batch size, take/skip/... count; str: a constant's name
    flag: bool | None = None  # batch: drop_remainder; shuffle: reshuffle_each_iteration
    fn: FnInfo | None = None  # map
    other: Expr | None = None  # concatenate
    tf_data_only: bool = False  # passes a keyword only tf.data has (the receiver is a dataset)


@dataclass(frozen=True, slots=True)
class Zip:
    parts: tuple[Expr, ...]
    site: Site
    python: bool  # builtin zip() (iterates side by side) rather than Dataset.zip


@dataclass(frozen=True, slots=True)
class ArrayOf:
    size: int | None


@dataclass(frozen=True, slots=True)
class IntConst:
    value: int


Expr = Ref | Opaque | Source | Method | Zip | ArrayOf | IntConst


@dataclass(frozen=True, slots=True)
class Assign:
    names: tuple[str, ...]
    values: tuple[Expr | None, ...]  # None: not a value we follow (the names are forgotten)


@dataclass(frozen=True, slots=True)
class Eval:
    value: Expr


@dataclass(frozen=True, slots=True)
class Branch:
    bodies: tuple[tuple[Stmt, ...], ...]
    assigned: tuple[str, ...]


Stmt = Assign | Eval | Branch
Program = tuple[Stmt, ...]


# -- compiling -----------------------------------------------------------------------------
class _Compiler:
    def __init__(self, terms: TermBuilder | None = None) -> None:
        self.sites: list[ast.AST] = []
        self.terms = terms

    def term(self, node: ast.AST) -> Term | None:
        return self.terms.expr(node) if self.terms is not None else None

    def site(self, node: ast.AST) -> Site:
        self.sites.append(node)
        return len(self.sites) - 1

    # statements
    def body(self, stmts: Iterable[ast.stmt]) -> Program:
        out: list[Stmt] = []
        for stmt in stmts:
            out.extend(self.stmt(stmt))
        return tuple(out)

    def stmt(self, stmt: ast.stmt) -> list[Stmt]:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return []
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            return self.assign(targets, stmt.value)
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            out = self.evals(stmt.iter)
            names = tuple(sorted(_stored_names([stmt])))
            out.append(Branch((self.body(stmt.body), self.body(stmt.orelse)), names))
            return out
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            out = []
            for item in stmt.items:
                out.extend(self.evals(item.context_expr))
            out.extend(self.body(stmt.body))
            return out
        if isinstance(stmt, (ast.If, ast.While)):
            out = self.evals(stmt.test)
            names = tuple(sorted(_stored_names([stmt])))
            out.append(Branch((self.body(stmt.body), self.body(stmt.orelse)), names))
            return out
        if isinstance(stmt, _TRY_TYPES):
            names = tuple(sorted(_stored_names([stmt])))
            handlers = getattr(stmt, "handlers", [])
            parts = [
                getattr(stmt, "body", []),
                *(h.body for h in handlers),
                getattr(stmt, "orelse", []),
                getattr(stmt, "finalbody", []),
            ]
            return [Branch(tuple(self.body(p) for p in parts), names)]
        if isinstance(stmt, ast.Match):
            names = tuple(sorted(_stored_names([stmt])))
            return [
                *self.evals(stmt.subject),
                Branch(tuple(self.body(c.body) for c in stmt.cases), names),
            ]
        out = []
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr):
                out.extend(self.evals(child))
        names = tuple(sorted(_stored_names([stmt])))
        if names:  # AugAssign, del, walrus-free oddities: forget what they touch
            out.append(Assign(names, (None,) * len(names)))
        return out

    def assign(self, targets: Sequence[ast.expr], value: ast.expr) -> list[Stmt]:
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            expr = self.expr(value)
            if expr is None:
                return [*self.evals(value), Assign((targets[0].id,), (None,))]
            return [Assign((targets[0].id,), (expr,))]
        target = targets[0] if len(targets) == 1 else None
        if (
            isinstance(target, (ast.Tuple, ast.List))
            and isinstance(value, (ast.Tuple, ast.List))
            and len(target.elts) == len(value.elts)
            and all(isinstance(t, ast.Name) for t in target.elts)
        ):
            exprs = [self.expr(v) for v in value.elts]
            out: list[Stmt] = []
            for v, e in zip(value.elts, exprs, strict=True):
                if e is None:
                    out.extend(self.evals(v))
            names = tuple(t.id for t in target.elts if isinstance(t, ast.Name))
            out.append(Assign(names, tuple(exprs)))
            return out
        out = self.evals(value)
        names = tuple(sorted(_stored_names_in_targets(targets)))
        if names:
            out.append(Assign(names, (None,) * len(names)))
        return out

    def evals(self, node: ast.AST) -> list[Stmt]:
        """Dataset expressions anywhere in ``node`` (outermost first, in source order)."""
        out: list[Stmt] = []
        stack = [node]
        found: list[tuple[tuple[int, int], Expr]] = []
        while stack:
            current = stack.pop()
            if isinstance(current, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(current, ast.Call):
                expr = self.expr(current)
                if expr is not None and not isinstance(expr, (Ref, ArrayOf, IntConst)):
                    found.append(((current.lineno, current.col_offset), expr))
                    continue
            stack.extend(reversed(list(ast.iter_child_nodes(current))))
        found.sort(key=lambda item: item[0])
        out.extend(Eval(expr) for _, expr in found)
        return out

    # expressions
    def expr(self, node: ast.expr) -> Expr | None:
        if isinstance(node, ast.Name):
            return Ref(node.id, self.term(node))
        value = _int(node)
        if value is not None:
            return IntConst(value)
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        text = dotted(func)
        if isinstance(func, ast.Name) and func.id in _TRANSPARENT_CALLS and len(node.args) == 1:
            return self.expr(node.args[0])
        if isinstance(func, ast.Attribute) and func.attr in _TRANSPARENT_METHODS:
            return self.expr(func.value)
        if isinstance(func, ast.Attribute) and func.attr in _ARRAY_METHODS:
            inner = self.expr(func.value)
            return inner if isinstance(inner, ArrayOf) else None
        if text == "zip" or (text is not None and text.endswith("Dataset.zip")):
            return self.zip(node, python=text == "zip")
        if text is not None and looks_like_source(text):
            return self.source(node, text)
        if text is not None and _is_array_constructor(text):
            return ArrayOf(_array_size(node, text))
        if isinstance(func, ast.Attribute) and func.attr in DATASET_METHODS:
            return self.method(node, func)
        return None

    def zip(self, node: ast.Call, *, python: bool) -> Expr | None:
        args: list[ast.expr] = list(node.args)
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = list(args[0].elts)
        elif not args:
            datasets = next((kw.value for kw in node.keywords if kw.arg == "datasets"), None)
            if isinstance(datasets, (ast.Tuple, ast.List)):
                args = list(datasets.elts)
        if len(args) < 2:
            return None
        parts = tuple(self.expr(a) or Opaque(self.term(a), self.site(a)) for a in args)
        return Zip(parts, self.site(node), python)

    def source(self, node: ast.Call, text: str) -> Source:
        size: int | None = None
        size_of: str | None = None
        last = text.rpartition(".")[2]
        args = node.args
        if last == "range":
            ints = [_int(a) for a in args[:3]]
            if args and len(args) <= 3 and all(i is not None for i in ints):
                try:
                    size = len(range(*[i for i in ints if i is not None]))
                except ValueError:
                    size = None
            elif len(args) == 1 and isinstance(args[0], ast.Name):
                size_of = args[0].id
        elif last == "from_tensors":
            size = 1
        elif last == "from_tensor_slices" and args:
            size, size_of = _slices_size(args[0])
        return Source(size, size_of, self.site(node))

    def method(self, node: ast.Call, func: ast.Attribute) -> Method:
        base_node = func.value
        base = self.expr(base_node)
        if base is None or isinstance(base, (ArrayOf, IntConst)):
            base = Opaque(self.term(base_node), self.site(base_node))
        name = func.attr
        number: int | str | None = None
        flag: bool | None = None
        fn: FnInfo | None = None
        other: Expr | None = None
        first = node.args[0] if node.args else None
        if name in BATCH_METHODS:
            number = _number(first if first is not None else _kw(node, "batch_size"))
            drop = node.args[1] if len(node.args) > 1 else _kw(node, "drop_remainder")
            flag = False if drop is None else _bool(drop)
        elif name == "shuffle":
            value = _kw(node, "reshuffle_each_iteration")
            if value is None and len(node.args) > 2:
                value = node.args[2]
            flag = True if value is None else _bool(value)
        elif name in ("take", "skip", "repeat"):
            number = _number(first if first is not None else _kw(node, "count"))
            if name == "repeat" and first is None and _kw(node, "count") is None:
                number = -1
        elif name == "shard":
            number = _number(first if first is not None else _kw(node, "num_shards"))
        elif name == "map":
            fn = _fn_info(first if first is not None else _kw(node, "map_func"))
        elif name == "concatenate" and first is not None:
            other = self.expr(first)
        only = any(kw.arg in _TF_DATA_KEYWORDS for kw in node.keywords)
        return Method(base, name, self.site(node), number, flag, fn, other, only)


def compile_body(
    stmts: Iterable[ast.stmt], terms: TermBuilder | None = None
) -> tuple[Program, list[ast.AST]]:
    """The program for ``stmts`` and its sites (the dataset calls, by site number).

    With ``terms`` (the block's term builder), names and calls the program cannot follow keep
    their terms, so a run can ask the semantic model whether they hold datasets."""
    compiler = _Compiler(terms)
    try:
        program = compiler.body(stmts)
    except RecursionError:
        return (), []
    return program, compiler.sites


def program_names(program: Program) -> set[str]:
    """Every name a program reads or binds: the only way its run meets another program's
    (:mod:`tflsp.analysis.dataflow_run` keeps its state by name and by dataset ancestry,
    which only names carry from one statement to another)."""
    out: set[str] = set()
    pending: list[Stmt] = list(program)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, Assign):
            out.update(stmt.names)
            for value in stmt.values:
                _expr_names(value, out)
        elif isinstance(stmt, Eval):
            _expr_names(stmt.value, out)
        else:
            out.update(stmt.assigned)
            for body in stmt.bodies:
                pending.extend(body)
    return out


def _expr_names(expr: Expr | None, out: set[str]) -> None:
    while expr is not None:
        if isinstance(expr, Ref):
            out.add(expr.name)
        elif isinstance(expr, Source):
            if expr.size_of is not None:
                out.add(expr.size_of)
        elif isinstance(expr, Zip):
            for part in expr.parts:
                _expr_names(part, out)
        elif isinstance(expr, Method):
            if isinstance(expr.number, str):
                out.add(expr.number)
            _expr_names(expr.other, out)
            expr = expr.base
            continue
        return


def looks_like_source(text: str) -> bool:
    last = text.rpartition(".")[2]
    if ".Dataset." in f".{text}" and last in (
        "range",
        "from_tensor_slices",
        "from_tensors",
        "from_generator",
        "list_files",
        "load",
        "sample_from_datasets",
        "choose_from_datasets",
        "random",
        "counter",
    ):
        return True
    return (
        last in ("TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset")
        or last.endswith("_dataset_from_directory")
        or text in ("tfds.load", "tensorflow_datasets.load")
    )


def _is_array_constructor(text: str) -> bool:
    head, _, last = text.rpartition(".")
    if head.split(".", 1)[0] not in ("np", "numpy", "tf", "tensorflow", "jnp"):
        return False
    return last in ("arange", "array", "range") or last in _ARRAY_SHAPE_FUNCS


def _array_size(node: ast.Call, text: str) -> int | None:
    last = text.rpartition(".")[2]
    args = node.args
    if last in ("arange", "range"):
        ints = [_int(a) for a in args[:3]]
        if args and len(args) <= 3 and all(i is not None for i in ints):
            try:
                return len(range(*[i for i in ints if i is not None]))
            except ValueError:
                return None
        return None
    if last == "array":
        if args and isinstance(args[0], (ast.List, ast.Tuple)):
            return len(args[0].elts)
        return None
    if last in ("rand", "randn") and args:
        return _int(args[0])
    numpy_normal = last == "normal" and text.split(".", 1)[0] in ("np", "numpy")
    shape: ast.expr | None = args[0] if args and not numpy_normal else None
    for key in _ARRAY_SIZE_KWARGS:
        shape = shape if shape is not None else _kw(node, key)
    if isinstance(shape, (ast.Tuple, ast.List)):
        return _int(shape.elts[0]) if shape.elts else None
    return _int(shape) if shape is not None else None


def _slices_size(arg: ast.expr) -> tuple[int | None, str | None]:
    if isinstance(arg, ast.Dict):
        return _slices_size(arg.values[0]) if arg.values else (None, None)
    if isinstance(arg, ast.Tuple) and arg.elts:
        if all(isinstance(e, ast.Constant) for e in arg.elts):
            return len(arg.elts), None
        return _slices_size(arg.elts[0])
    if isinstance(arg, ast.List):
        return len(arg.elts), None
    if isinstance(arg, ast.Name):
        return None, arg.id
    if isinstance(arg, ast.Call):
        text = dotted(arg.func)
        if text is not None and _is_array_constructor(text):
            return _array_size(arg, text), None
    return None, None


def _fn_info(node: ast.expr | None) -> FnInfo | None:
    if node is None:
        return None
    if isinstance(node, ast.Call) and dotted(node.func) in ("functools.partial", "partial"):
        return _fn_info(node.args[0]) if node.args else None
    if isinstance(node, ast.Lambda):
        callees: list[str] = []
        refs: list[str] = []
        for sub in ast.walk(node.body):
            if isinstance(sub, ast.Call):
                text = dotted(sub.func)
                if text is None:
                    continue
                callees.append(text)
                if text.endswith(_EAGER_WRAPPERS):
                    target = sub.args[0] if sub.args else _kw(sub, "func")
                    ref = dotted(target) if target is not None else None
                    if ref is not None:
                        refs.append(ref)
        return FnInfo(None, tuple(callees), tuple(refs))
    name = dotted(node)
    return FnInfo(name) if name is not None else None


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _int(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


def _number(node: ast.expr | None) -> int | str | None:
    """An int literal, or the name of what is probably an int constant (``BATCH_SIZE``)."""
    if isinstance(node, ast.Name):
        return node.id
    return _int(node)


def _bool(node: ast.expr) -> bool | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    return None


def _stored_names(stmts: Iterable[ast.AST]) -> set[str]:
    names: set[str] = set()
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _stored_names_in_targets(targets: Iterable[ast.expr]) -> set[str]:
    return _stored_names(targets)
