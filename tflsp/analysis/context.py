"""What a detector sees: one parsed block, the module summary and the semantic model.

Positions handed to :meth:`BlockContext.report` are block-relative; the engine shifts them to
module lines, so cached findings stay valid when lines above the block move.

The questions a detector asks about code (all answered by :mod:`tflsp.analysis.semantic`, with
aliases, reassignments, branches and this module's functions and classes taken into account):

- ``ctx.value(expr)``: the abstract values an expression may hold (:mod:`.semantic.values`);
- ``ctx.qualname(expr)`` (alias ``ctx.resolve``): the canonical library name a name or
  attribute chain refers to (``tensorflow.print``, ``keras.layers.Dense``), None otherwise;
- ``ctx.is_instance_of(expr, kind)`` / ``ctx.may_be(expr, kind)``: every / some possible value is
  of a kind: ``model``, ``layer``, ``keras_object`` (layer or model), ``dataset``, ``tensor``,
  ``variable``, ``keras_tensor``, ``gradient_tape``, ``ndarray``, ``str``, ``path``, ``number``,
  ``container``, ``function``, ``tf_function``, ``foreign``, ``optimizer``, ``metric``,
  ``loss``, ``callback``;
- ``ctx.string(expr)``: the text a string or path expression is known to have;
  ``ctx.string_end(expr)``: its known end (``f"{run}/model.keras"`` ends in ``/model.keras``);
- ``ctx.reaching(name)``: the bindings in its own scope that may reach one use of a name (a
  :class:`~.semantic.flow.Reach`), for questions of order such as "from the last iteration?";
- ``ctx.functions(expr)``: ids of this module's functions an expression may hold;
  ``ctx.function_id(fn)``, ``ctx.class_id(cls)``: module-wide ids of a def or class node;
- ``ctx.graph_info(node)`` / ``ctx.in_graph(node)``: why the code at a node runs as a graph
  (None when it runs eagerly: plain Python, ``tf.py_function`` bodies, ``tf.init_scope()``);
- ``ctx.keras_kind(cls)``: the TF/Keras base kind of a class of this module;
- ``ctx.saving``: which objects reach which save and load (:mod:`.semantic.saving`).

An unknown value makes ``is_instance_of`` false: a detector that cannot know stays silent.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from tflsp.analysis.diagnostics import Diagnostic, Edit, Fix
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import canonical
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.block import BlockSemantics, branch_guards
from tflsp.analysis.semantic.flow import Reach
from tflsp.analysis.semantic.graph import (
    DATASET_FUNCTION_METHODS,
    EAGER_WRAPPERS,
    INIT_SCOPE,
    GraphInfo,
)
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.traced import runs_eagerly
from tflsp.analysis.semantic.values import Values
from tflsp.analysis.summary import ModuleSummary

Span = tuple[int, int, int, int]  # line, column, end line, end column (block-relative)

__all__ = ["EAGER_WRAPPERS", "BlockContext", "GraphInfo", "Span"]

_KIND_TESTS: dict[str, Any] = {
    "model": lambda x: x.kind == v.INSTANCE and x.base == v.MODEL,
    "layer": lambda x: x.kind == v.INSTANCE and x.base == v.LAYER,
    "keras_object": lambda x: x.kind == v.INSTANCE and x.base in (v.LAYER, v.MODEL),
    "optimizer": lambda x: x.kind == v.INSTANCE and x.base == v.OPTIMIZER,
    "metric": lambda x: x.kind == v.INSTANCE and x.base == v.METRIC,
    "loss": lambda x: x.kind == v.INSTANCE and x.base == v.LOSS,
    "callback": lambda x: x.kind == v.INSTANCE and x.base == v.CALLBACK,
    "dataset": lambda x: x.kind == v.DATASET,
    "tensor": lambda x: x.kind == v.TENSOR,
    "variable": lambda x: x.kind in (v.VARIABLE, v.KERAS_VARIABLE),
    "keras_tensor": lambda x: x.kind == v.KERAS_TENSOR,
    "gradient_tape": lambda x: x.kind == v.TAPE,
    "ndarray": lambda x: x.kind == v.NDARRAY,
    "str": lambda x: x.kind == v.STR,
    "path": lambda x: x.kind in (v.STR, v.PATH),
    "number": lambda x: x.kind in (v.INT, v.FLOAT),
    "container": lambda x: x.kind in v.CONTAINERS,
    "function": lambda x: x.kind == v.FUNCTION,
    "tf_function": lambda x: x.kind == v.FUNCTION and x.const == v.TF_FUNCTION,
    "foreign": lambda x: x.kind == v.FOREIGN,
}


class BlockContext:
    def __init__(
        self,
        text: str,
        tree: ast.Module,
        index: NodeIndex,
        summary: ModuleSummary,
        enabled: frozenset[str],
        neutralised: frozenset[int] = frozenset(),
        ordinal: int = 0,
    ) -> None:
        self._text = text
        self.tree = tree
        self.index = index
        self.summary = summary
        self.enabled = enabled
        self.findings: list[Diagnostic] = []
        self._lines: list[str] | None = None
        self._neutralised = neutralised
        # What the detectors read of the lines recovery neutralised (see :meth:`line_text`).
        self.neutralised_reads: dict[int, str] = {}
        self.contains_reads: dict[str, bool] = {}
        self.read_whole_text = False
        self.ordinal = ordinal  # the block's position among the module's blocks
        self._semantics: BlockSemantics | None = None
        # Per-check memo for detector families (keyed by a name the family chooses).  It lives
        # and dies with this context: a module-level cache keyed by the context would keep it
        # (and its tree and summary) alive.
        self.memo: dict[str, Any] = {}
        # Many detectors ask what the same names and calls hold: asked once per block.
        self._values: dict[ast.AST, Values] = {}
        self._qualnames: dict[ast.AST, str | None] = {}

    # -- source access -------------------------------------------------------------------
    # A block that needed recovery is analysed as its recovered text, which is the same for
    # every keystroke of a half-typed line; the engine reuses the findings for another text
    # with the same recovery when the detectors read nothing of the neutralised lines that
    # differs (they note it here).
    @property
    def text(self) -> str:
        if self._neutralised:
            self.read_whole_text = True
        return self._text

    @property
    def lines(self) -> list[str]:
        if self._neutralised:
            self.read_whole_text = True
        return self._split_lines()

    def _split_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self._text.split("\n")
        return self._lines

    def line_text(self, line: int) -> str:
        lines = self._split_lines()
        found = lines[line - 1] if 0 < line <= len(lines) else ""
        if line in self._neutralised:
            self.neutralised_reads[line] = found
        return found

    def contains(self, text: str) -> bool:
        """Does the block's text contain ``text`` (a cheap filter before walking the tree)?"""
        found = text in self._text
        if self._neutralised:
            self.contains_reads[text] = found
        return found

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

    # -- the semantic model ----------------------------------------------------------------
    @property
    def keras_version(self) -> int:
        return self.summary.keras_version

    @property
    def semantics(self) -> BlockSemantics:
        if self._semantics is None:
            self._semantics = semantics_of(self.index)
        return self._semantics

    @property
    def model(self) -> ModuleModel:
        model = self.summary.model
        if model is None:  # a summary built by hand (tests): model this block alone
            model = self.summary.model = ModuleModel([self.semantics.facts])
        return model

    def value(self, expr: ast.AST) -> Values:
        """The abstract values ``expr`` may hold where it is written."""
        found = self._values.get(expr)
        if found is None:
            term = self.semantics.terms.expr(expr)
            found = self._values[expr] = self.model.value(term, self.ordinal)
        return found

    def qualname(self, expr: ast.AST) -> str | None:
        """Canonical qualified name of a name/attribute expression (``tensorflow.print``)."""
        qualnames = self._qualnames
        if expr in qualnames:
            return qualnames[expr]
        found = qualnames[expr] = self._qualname(expr)
        return found

    def _qualname(self, expr: ast.AST) -> str | None:
        if isinstance(expr, ast.Name):
            return qualname_of(self.value(expr))
        if not isinstance(expr, ast.Attribute):
            return None
        # ``tf.keras.layers.Dense``: the root's value, then the dotted path (the attributes
        # of a library name are library names; no need to evaluate each prefix).
        parts: list[str] = []
        node: ast.AST = expr
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return qualname_of(self.value(expr))
        root = self.value(node)
        if len(root) != 1:
            return qualname_of(self.value(expr)) if root else None
        (value,) = root
        if value.kind != v.NAME or not value.ref:
            return None  # attributes of objects and of this module's classes are not names
        return canonical(".".join((value.ref, *reversed(parts))))

    def resolve(self, expr: ast.AST) -> str | None:
        return self.qualname(expr)

    def reaching(self, name: ast.Name) -> Reach | None:
        """The bindings that may reach this use of a name (None for a store)."""
        return self.semantics.flow.uses.get(name)

    def call_name(self, call: ast.Call) -> str | None:
        return self.qualname(call.func)

    def is_instance_of(self, expr: ast.AST, kind: str) -> bool:
        """Every value ``expr`` may hold is of ``kind`` (see the module docstring)."""
        return v.all_of(self.value(expr), _KIND_TESTS[kind])

    def may_be(self, expr: ast.AST, kind: str) -> bool:
        """Some value ``expr`` may hold is of ``kind``, or it is unknown."""
        values = self.value(expr)
        return v.is_unknown(values) or v.any_of(values, _KIND_TESTS[kind])

    def string(self, expr: ast.AST) -> str | None:
        """The text a string or path expression surely has."""
        found: str | None = None
        for value in self.value(expr):
            if value.kind not in (v.STR, v.PATH) or not isinstance(value.const, str):
                return None
            if found is not None and value.const != found:
                return None
            found = value.const
        return found

    def string_end(self, expr: ast.AST) -> str | None:
        """The known end of a string or path (the whole text when it is known)."""
        found: str | None = None
        for value in self.value(expr):
            if value.kind not in (v.STR, v.PATH):
                return None
            text = value.const if isinstance(value.const, str) else value.base
            if not text or (found is not None and text != found):
                return None
            found = text
        return found

    def functions(self, expr: ast.AST) -> list[str]:
        """Ids of this module's functions ``expr`` may hold."""
        return [x.local_id for x in self.value(expr) if x.kind == v.FUNCTION and x.is_local]

    @property
    def block_key(self) -> object:
        """This block's identity in the module (stable while other blocks change)."""
        keys = self.model.keys
        return keys[self.ordinal] if self.ordinal < len(keys) else None

    def function_id(self, fn: ast.AST) -> str:
        return self.model.gid(self.ordinal, self.semantics.local_id(fn))

    def class_id(self, cls: ast.ClassDef) -> str:
        return self.model.gid(self.ordinal, self.semantics.local_id(cls))

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

    # -- graph context -------------------------------------------------------------------
    def graph_info(self, node: ast.AST) -> GraphInfo | None:
        """Why the code at ``node`` runs as a graph, or None when it runs eagerly."""
        memo: dict[ast.AST, GraphInfo | None] | None = self.memo.get("context.graph_info")
        if memo is None:
            memo = self.memo["context.graph_info"] = {}
        scope = self.index.enclosing_function(node)
        if scope is not None and not _in_with(self.index, node, scope):
            # Every node of a function body (outside ``with`` blocks) shares the answer.
            if scope in memo:
                found = memo[scope]
            else:
                found = memo[scope] = self._graph_info(node)
        else:
            found = self._graph_info(node)
        return None if found is not None and self._eager_branch(node) else found

    def _eager_branch(self, node: ast.AST) -> bool:
        """``node`` sits under a test that says the code is not traced (``if not
        tf.inside_function():``): that branch never runs inside the graph."""
        stmt = node
        while not isinstance(stmt, ast.stmt):
            parent = self.index.parent(stmt)
            if parent is None:
                return False
            stmt = parent
        memo: dict[ast.AST, bool] | None = self.memo.get("context.eager_branch")
        if memo is None:
            memo = self.memo["context.eager_branch"] = {}
        found = memo.get(stmt)
        if found is None:
            guards = branch_guards(self.semantics, stmt)
            found = memo[stmt] = bool(guards) and runs_eagerly(self.model, self.ordinal, guards)
        return found

    def _graph_info(self, node: ast.AST) -> GraphInfo | None:
        graph = self.summary.graph
        eager = self.summary.graph_map.eager if self.summary.graph_map is not None else ()
        child = node
        for scope in self.index.ancestors(node):
            if isinstance(scope, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
                if not _in_header(scope, child):
                    gid = self.function_id(scope)
                    info = graph.get(gid)
                    if info is not None:
                        return info
                    if gid in eager:
                        return None  # handed to tf.py_function: runs as Python on every call
            elif isinstance(scope, (ast.With, ast.AsyncWith)):
                if child in scope.body and any(
                    isinstance(item.context_expr, ast.Call)
                    and self.qualname(item.context_expr.func) == INIT_SCOPE
                    for item in scope.items
                ):
                    return None  # lifted out of the graph: runs eagerly
            elif isinstance(scope, ast.ClassDef) and child in scope.body:
                return None
            child = scope
        return None

    def in_graph(self, node: ast.AST) -> bool:
        return self.graph_info(node) is not None

    def graph_function_name(self, node: ast.AST) -> str:
        """Short name of the innermost function around ``node`` for messages."""
        fn = self.index.enclosing_function(node)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return self.index.scope_id(fn)
        return "lambda"

    def is_dataset(self, expr: ast.AST) -> bool:
        return self.is_instance_of(expr, "dataset")

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
        return self.summary.class_kind(self.class_id(cls))

    def method_owner(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.ClassDef | None:
        parent = self.index.parent(fn)
        return parent if isinstance(parent, ast.ClassDef) else None

    def keras_classes(self) -> list[tuple[ast.ClassDef, str]]:
        """The block's classes with a TF/Keras base kind, in source order (asked by many
        detectors: found once per check)."""
        classes = self.index.nodes(ast.ClassDef)
        if not classes:
            return []
        found: list[tuple[ast.ClassDef, str]] | None = self.memo.get("context.keras_classes")
        if found is None:
            found = self.memo["context.keras_classes"] = [
                (cls, kind) for cls in classes if (kind := self.keras_kind(cls)) is not None
            ]
        return found

    # -- reporting -----------------------------------------------------------------------
    def wants(self, *codes: str) -> bool:
        return not self.enabled.isdisjoint(codes)

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


def _in_with(index: NodeIndex, node: ast.AST, scope: ast.AST) -> bool:
    for parent in index.ancestors(node):
        if parent is scope:
            return False
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            return True
    return False


def _in_header(scope: ast.AST, node: ast.AST) -> bool:
    """Is ``node`` (a direct child of ``scope``) its decorators, defaults or annotations,
    which run where the def is, not in the function?"""
    if isinstance(scope, ast.Lambda):
        return node is not scope.body
    return node not in scope.body  # type: ignore[attr-defined]
