"""What a detector sees: one parsed block plus the module summary, and a way to report.

Positions handed to :meth:`BlockContext.report` are block-relative; the engine shifts them to
module lines, so cached findings stay valid when lines above the block move.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from tflsp.analysis.diagnostics import Diagnostic, Edit, Fix
from tflsp.analysis.facts import DATASET_FUNCTION_METHODS, looks_like_dataset
from tflsp.analysis.index import FunctionNode, NodeIndex
from tflsp.analysis.names import canonical, dotted, import_bindings
from tflsp.analysis.summary import GraphInfo, ModuleSummary

Span = tuple[int, int, int, int]  # line, column, end line, end column (block-relative)

# Functions passed to these run eagerly as Python, even from inside graph code.
EAGER_WRAPPERS = frozenset(
    {"tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.compat.v1.py_func"}
)
_NO_IMPORTS: dict[str, str] = {}


class BlockContext:
    def __init__(
        self,
        text: str,
        tree: ast.Module,
        index: NodeIndex,
        summary: ModuleSummary,
        enabled: frozenset[str],
        neutralised: frozenset[int] = frozenset(),
    ) -> None:
        self.text = text
        self.tree = tree
        self.index = index
        self.summary = summary
        self.enabled = enabled
        self.findings: list[Diagnostic] = []
        self._lines: list[str] | None = None
        self._local_imports: dict[ast.AST, dict[str, str]] | None = None
        self._neutralised = neutralised
        # Per-check memo for detector families (keyed by a name the family chooses).  It lives
        # and dies with this context: a module-level cache keyed by the context would keep it
        # (and its tree and summary) alive.
        self.memo: dict[str, Any] = {}

    # -- source access -------------------------------------------------------------------
    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    def line_text(self, line: int) -> str:
        lines = self.lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def char_col(self, line: int, byte_col: int) -> int:
        """Convert an :mod:`ast` UTF-8 byte offset to a code-point column."""
        text = self.line_text(line)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def node_range(self, node: ast.AST) -> tuple[int, int, int, int]:
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        col = self.char_col(line, getattr(node, "col_offset", 0))
        end_col = self.char_col(end_line, getattr(node, "end_col_offset", None) or 0)
        return line, col, end_line, end_col

    def source(self, node: ast.AST) -> str:
        return self.span_text(*self.node_range(node))

    def span_text(self, line: int, col: int, end_line: int, end_col: int) -> str:
        """The block text between two positions (1-based lines, code-point columns)."""
        if line == end_line:
            return self.line_text(line)[col:end_col]
        parts = [self.line_text(line)[col:]]
        parts.extend(self.line_text(n) for n in range(line + 1, end_line))
        parts.append(self.line_text(end_line)[:end_col])
        return "\n".join(parts)

    # -- names ---------------------------------------------------------------------------
    @property
    def keras_version(self) -> int:
        return self.summary.keras_version

    def resolve(self, expr: ast.AST) -> str | None:
        """Canonical qualified name of a name/attribute expression (``tensorflow.print``)."""
        text = dotted(expr)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        for scope in self.index.ancestors(expr):
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local = self._function_imports(scope)
                if head in local:
                    target = local[head]
                    return canonical(f"{target}.{rest}" if rest else target)
                if _binds_locally(scope, head):
                    return None
        return self.summary.resolve(text)

    def call_name(self, call: ast.Call) -> str | None:
        return self.resolve(call.func)

    def alias_for(self, qualname: str) -> str | None:
        """The module-level name bound to ``qualname`` (``tf`` for ``tensorflow``), if any."""
        for local, target in self.summary.imports.items():
            if canonical(target) == qualname:
                return local
        return None

    def keyword(self, call: ast.Call, name: str) -> ast.keyword | None:
        for kw in call.keywords:
            if kw.arg == name:
                return kw
        return None

    def _function_imports(self, fn: ast.AST) -> dict[str, str]:
        """Names bound by imports anywhere inside ``fn`` (nested scopes included)."""
        if self._local_imports is None:
            # One pass over the block's few import statements instead of a walk per function.
            by_function: dict[ast.AST, dict[str, str]] = {}
            index = self.index
            imports: list[ast.Import | ast.ImportFrom] = [
                *index.nodes(ast.Import),
                *index.nodes(ast.ImportFrom),
            ]
            imports.sort(key=lambda node: (node.lineno, node.col_offset))
            for node in imports:
                bindings = None
                for scope in index.ancestors(node):
                    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        bindings = bindings or import_bindings(node)
                        by_function.setdefault(scope, {}).update(bindings)
            self._local_imports = by_function
        return self._local_imports.get(fn, _NO_IMPORTS)

    # -- graph context -------------------------------------------------------------------
    def graph_info(self, node: ast.AST) -> GraphInfo | None:
        """Why the code at ``node`` runs as a graph, or None when it runs eagerly."""
        for scope in self.index.ancestors(node):
            if isinstance(scope, ast.Lambda):
                parent = self.index.parent(scope)
                if isinstance(parent, ast.Call):
                    name = self.call_name(parent)
                    if name in EAGER_WRAPPERS:
                        return None
                    if self.is_dataset_function_call(parent):
                        return GraphInfo("dataset", self.index.scope_id(scope))
                if parent is not None and isinstance(parent, ast.keyword):
                    grand = self.index.parent(parent)
                    if isinstance(grand, ast.Call) and self.is_dataset_function_call(grand):
                        return GraphInfo("dataset", self.index.scope_id(scope))
            elif isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                info = self.summary.graph.get(self.index.scope_id(scope))
                if info is not None:
                    return info
                if self._handed_to_eager_wrapper(scope):
                    # A nested function given to tf.py_function runs as Python on every call,
                    # even though it is defined inside traced code.
                    return None
            elif isinstance(scope, ast.ClassDef):
                return None
        return None

    def _handed_to_eager_wrapper(self, fn: FunctionNode) -> bool:
        outer = self.index.enclosing_function(fn)
        if outer is None:
            return False
        for call in self.index.nodes(ast.Call):
            if self.index.enclosing_function(call) is not outer:
                continue
            passed = [*call.args, *(kw.value for kw in call.keywords)]
            if any(isinstance(a, ast.Name) and a.id == fn.name for a in passed) and (
                self.call_name(call) in EAGER_WRAPPERS
            ):
                return True
        return False

    def in_graph(self, node: ast.AST) -> bool:
        return self.graph_info(node) is not None

    def graph_function_name(self, node: ast.AST) -> str:
        """Short name of the innermost function around ``node`` for messages."""
        fn = self.index.enclosing_function(node)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return self.index.scope_id(fn)
        return "lambda"

    def is_dataset(self, expr: ast.AST) -> bool:
        return looks_like_dataset(expr, self.summary.dataset_names)

    def is_dataset_function_call(self, call: ast.Call) -> bool:
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in DATASET_FUNCTION_METHODS
            and self.is_dataset(func.value)
        )

    # -- Keras classes -------------------------------------------------------------------
    def keras_kind(self, cls: ast.ClassDef) -> str | None:
        """``layer``, ``model``, ``module`` (tf.Module) or None for other classes."""
        return self.summary.class_kind(self.index.scope_id(cls))

    def method_owner(self, fn: FunctionNode) -> ast.ClassDef | None:
        parent = self.index.parent(fn)
        return parent if isinstance(parent, ast.ClassDef) else None

    def keras_classes(self) -> Iterable[tuple[ast.ClassDef, str]]:
        for cls in self.index.nodes(ast.ClassDef):
            kind = self.keras_kind(cls)
            if kind is not None:
                yield cls, kind

    # -- reporting -----------------------------------------------------------------------
    def wants(self, *codes: str) -> bool:
        return any(code in self.enabled for code in codes)

    def attribute_span(self, node: ast.Attribute, end: ast.AST | None = None) -> Span:
        """From the dot of ``value.attr`` to the end of ``end`` (default: the attribute)."""
        _, _, line, col = self.node_range(node.value)
        _, _, end_line, end_col = self.node_range(end or node)
        return (line, col, end_line, end_col)

    def report(
        self,
        code: str,
        node: ast.AST | Span,
        *,
        message: str = "default",
        args: Mapping[str, object] | None = None,
        fix: Fix | None = None,
        end: ast.AST | None = None,
    ) -> None:
        if code not in self.enabled:
            return
        if isinstance(node, tuple):
            line, col, end_line, end_col = node
        else:
            line, col, end_line, end_col = self.node_range(node)
        if end is not None:
            _, _, end_line, end_col = self.node_range(end)
        if line in self._neutralised:
            return
        self.findings.append(
            Diagnostic(
                code=code,
                line=line,
                column=col,
                end_line=end_line,
                end_column=end_col,
                severity="",  # filled in by the engine from the catalog and settings
                message_id=message,
                args={k: str(v) for k, v in (args or {}).items()},
                fix=fix,
            )
        )

    # -- edits ---------------------------------------------------------------------------
    def replace(self, node: ast.AST, text: str) -> Edit:
        line, col, end_line, end_col = self.node_range(node)
        return Edit(line, col, end_line, end_col, text)

    def insert_at(self, line: int, column: int, text: str) -> Edit:
        return Edit(line, column, line, column, text)

    def delete(self, node: ast.AST) -> Edit:
        return self.replace(node, "")

    def fix(self, *edits: Edit, safe: bool, **args: str) -> Fix:
        return Fix(tuple(edits), safe, args)


def _binds_locally(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """A parameter with this name shadows a module import inside the function."""
    a = fn.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    if a.vararg:
        params.append(a.vararg)
    if a.kwarg:
        params.append(a.kwarg)
    return any(p.arg == name for p in params)
