"""tf.data family, TFL201: Python libraries called on elements inside Dataset.map functions.

tf.data calls a mapped function once, with symbolic tensors, to trace it.  A library that needs
real values (json, open(), NumPy, PIL, ...) then gets a ``SymbolicTensor`` and raises.  The
check follows element values from the function's parameters through assignments, and leaves
alone what is only a trace-time constant (``x.shape[0]``) or wrapped in tf.py_function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tflsp.analysis.context import BlockContext
from tflsp.analysis.index import FunctionNode
from tflsp.analysis.names import dotted, import_bindings
from tflsp.analysis.registry import detector

# Libraries that need real values: on a symbolic tensor they raise while tf.data traces.
_PYTHON_ONLY_PREFIXES = (
    "PIL.",
    "cv2.",
    "librosa.",
    "soundfile.",
    "scipy.",
    "skimage.",
    "imageio.",
    "pandas.",
    "json.",
    "pickle.",
    "h5py.",
    "os.",
    "glob.",
    "shutil.",
    "pathlib.",
    "csv.",
    "wave.",
    "torch.",
    "torchaudio.",
    "torchvision.",
    "sklearn.",
    "numpy.",
)
_PYTHON_ONLY_NAMES = frozenset({"builtins.open"})
# Attributes that are plain Python values at trace time (``x.shape[0]`` is fine).
_STATIC_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "name", "device"})
_STATIC_CALLS = frozenset({"len", "isinstance", "type", "print"})


def _python_only(qualname: str | None) -> bool:
    return qualname is not None and (
        qualname in _PYTHON_ONLY_NAMES or qualname.startswith(_PYTHON_ONLY_PREFIXES)
    )


@detector("TFL201")
def python_in_dataset_map(ctx: BlockContext) -> None:
    if not ctx.index.has_functions():
        return  # what tf.data maps is a function or a lambda
    reachable: set[str] | None = None
    for scope, params in _dataset_functions(ctx):
        calls = [c for c in ctx.index.nodes(ast.Call) if ctx.index.enclosing_function(c) is scope]
        if not calls:
            continue
        if reachable is None:
            reachable = _reachable(ctx)
        tainted = _tainted_names(ctx, scope, params)
        for call in calls:
            text = dotted(call.func)
            if text is None or text.partition(".")[0] not in reachable:
                continue
            name = ctx.resolve(call.func)
            if not _python_only(name):
                continue
            arguments = [*call.args, *(kw.value for kw in call.keywords)]
            if any(_reads(arg, tainted) for arg in arguments):
                function = scope.name if not isinstance(scope, ast.Lambda) else "lambda"
                ctx.report(
                    "TFL201",
                    call,
                    args={"callee": ctx.source(call.func), "function": function},
                )


def _reachable(ctx: BlockContext) -> set[str]:
    """Names through which a call can reach a library: imports (module or local) and open()."""
    reachable = {"open", *ctx.summary.imports}
    imports: list[ast.Import | ast.ImportFrom] = [
        *ctx.index.nodes(ast.Import),
        *ctx.index.nodes(ast.ImportFrom),
    ]
    for node in imports:
        reachable.update(name for name, _ in import_bindings(node))
    return reachable


def _dataset_functions(
    ctx: BlockContext,
) -> Iterator[tuple[FunctionNode | ast.Lambda, set[str]]]:
    graph = ctx.summary.graph
    for fn in ctx.index.functions():
        info = graph.get(ctx.index.scope_id(fn))
        if info is None:
            continue
        origin = graph.get(info.origin)
        if info.kind == "dataset" or (origin is not None and origin.kind == "dataset"):
            yield fn, _params(fn.args)
    for lam in ctx.index.nodes(ast.Lambda):
        parent = ctx.index.parent(lam)
        call = ctx.index.parent(parent) if isinstance(parent, ast.keyword) else parent
        if isinstance(call, ast.Call) and ctx.is_dataset_function_call(call):
            yield lam, _params(lam.args)


def _params(args: ast.arguments) -> set[str]:
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        names.append(args.vararg.arg)
    return {n for n in names if n not in ("self", "cls")}


def _tainted_names(ctx: BlockContext, scope: ast.AST, params: set[str]) -> set[str]:
    """Names that hold element tensors: parameters and what is computed from them."""
    tainted = set(params)
    assigns = [
        a
        for a in ctx.index.nodes(ast.Assign)
        if ctx.index.enclosing_function(a) is scope and not _calls_python_only(ctx, a.value)
    ]
    changed = True
    while changed:
        changed = False
        for assign in assigns:
            if not _reads(assign.value, tainted):
                continue
            for target in assign.targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Name) and node.id not in tainted:
                        tainted.add(node.id)
                        changed = True
    return tainted


def _calls_python_only(ctx: BlockContext, expr: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and _python_only(ctx.resolve(n.func)) for n in ast.walk(expr)
    )


def _reads(expr: ast.AST, names: set[str]) -> bool:
    """Does ``expr`` use one of ``names`` as a value (not only its shape or dtype)?"""
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if node.id in names:
                return True
        elif not _static_only(node):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _static_only(node: ast.AST) -> bool:
    """``x.shape``, ``len(x)`` and lambdas give no element values to their surroundings."""
    if isinstance(node, ast.Attribute):
        return node.attr in _STATIC_ATTRIBUTES
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _STATIC_CALLS
    return isinstance(node, ast.Lambda)
