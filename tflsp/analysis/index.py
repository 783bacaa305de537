"""One walk over a block's tree: parent links and nodes grouped by type.

Detectors ask the index for the nodes they care about instead of walking the tree themselves,
so adding detectors does not add walks.
"""

from __future__ import annotations

import ast
import operator
from collections import defaultdict
from collections.abc import Iterator
from typing import Any, TypeVar

N = TypeVar("N", bound=ast.AST)

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
ScopeNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


class NodeIndex:
    __slots__ = (
        "__weakref__",  # what its memo holds refers back to it weakly (no reference cycle)
        "_by_type",
        "_class_of",
        "_function_of",
        "_scope_ids",
        "_scope_of",
        "memo",
        "parents",
        "tree",
    )

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[ast.AST, ast.AST] = {}
        # Detectors ask the same questions about the same nodes many times: remember answers.
        self._function_of: dict[ast.AST, ast.AST | None] = {}
        self._class_of: dict[ast.AST, ast.AST | None] = {}
        self._scope_of: dict[ast.AST, ast.AST | None] = {}
        self._scope_ids: dict[ast.AST, str] = {}
        # Per-block results a family computes once and reads in several places (fact
        # extraction and detection), keyed by a name the family chooses.
        self.memo: dict[str, Any] = {}
        self._by_type: dict[type, list[ast.AST]] = defaultdict(list)
        parents = self.parents
        by_type = self._by_type
        stack: list[ast.AST] = [tree]
        AST, context = ast.AST, ast.expr_context
        # An explicit stack: deeply nested expressions must not hit the recursion limit.
        while stack:
            node = stack.pop()
            by_type[type(node)].append(node)
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, AST):
                            parents[item] = node
                            stack.append(item)
                # Load/Store/Del are shared singletons: a parent link for them means nothing,
                # and they are a third of all nodes.
                elif isinstance(value, AST) and not isinstance(value, context):
                    parents[value] = node
                    stack.append(value)
        for kind, nodes in by_type.items():
            if len(nodes) > 1:
                _sort(kind, nodes)

    def nodes(self, kind: type[N]) -> list[N]:
        """All nodes of exactly this type, in source order."""
        return self._by_type.get(kind, [])  # type: ignore[return-value]

    def functions(self) -> list[FunctionNode]:
        plain: list[FunctionNode] = self.nodes(ast.FunctionDef)
        coroutines: list[FunctionNode] = self.nodes(ast.AsyncFunctionDef)
        if not coroutines or not plain:  # one list, already in source order
            return list(plain or coroutines)
        out = [*plain, *coroutines]
        out.sort(key=_position)
        return out

    def has_functions(self) -> bool:
        """Does the block define a function or a lambda?  Code outside them never runs in a
        graph, so many detectors have nothing to look at in a block without any."""
        by_type = self._by_type
        return bool(
            by_type.get(ast.FunctionDef)
            or by_type.get(ast.AsyncFunctionDef)
            or by_type.get(ast.Lambda)
        )

    def mentioning(self, names: set[str] | frozenset[str]) -> set[ast.AST]:
        """Every node whose subtree holds a ``Name`` of one of ``names`` (the name included).

        ``node in index.mentioning(names)`` answers what an ``ast.walk`` of ``node`` would,
        for all nodes at once: one climb from each matching name instead of a walk per node.
        """
        out: set[ast.AST] = set()
        parents = self.parents
        for name in self.nodes(ast.Name):
            if name.id not in names:
                continue
            node: ast.AST | None = name
            while node is not None and node not in out:
                out.add(node)
                node = parents.get(node)
        return out

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(node)

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def _nearest(
        self,
        node: ast.AST,
        memo: dict[ast.AST, ast.AST | None],
        found: tuple[type, ...],
        stop: tuple[type, ...] = (),
    ) -> ast.AST | None:
        """The closest ancestor of a ``found`` type, or None past a ``stop`` type.  Every node
        on the way shares the answer, so it is remembered for all of them."""
        answer = memo.get(node, _MISSING)
        if answer is not _MISSING:
            return answer
        path = [node]
        parent = self.parents.get(node)
        while parent is not None:
            if isinstance(parent, found):
                answer = parent
                break
            if isinstance(parent, stop):
                answer = None
                break
            answer = memo.get(parent, _MISSING)
            if answer is not _MISSING:
                break
            path.append(parent)
            parent = self.parents.get(parent)
        else:
            answer = None
        for visited in path:
            memo[visited] = answer
        return answer

    def enclosing_scope(self, node: ast.AST) -> ScopeNode | None:
        return self._nearest(node, self._scope_of, _SCOPES)  # type: ignore[return-value]

    def enclosing_function(self, node: ast.AST) -> FunctionNode | ast.Lambda | None:
        return self._nearest(node, self._function_of, _FUNCTIONS, (ast.ClassDef,))  # type: ignore[return-value]

    def enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        """The class a method (or a node inside a method) belongs to, through nested defs."""
        return self._nearest(node, self._class_of, (ast.ClassDef,))  # type: ignore[return-value]

    def enclosing_loop(self, node: ast.AST, stop_at_function: bool = True) -> ast.AST | None:
        for parent in self.ancestors(node):
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)):
                return parent
            if stop_at_function and isinstance(
                parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
            ):
                return None
        return None

    def scope_id(self, node: ast.AST) -> str:
        """Dotted path of the named scopes around (and including) a def or class: ``Model.call``."""
        known = self._scope_ids.get(node)
        if known is not None:
            return known
        names: list[str] = []
        current: ast.AST | None = node
        while current is not None:
            if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.append(current.name)
            elif isinstance(current, ast.Lambda):
                names.append(f"<lambda:{current.lineno}:{current.col_offset}>")
            current = self.parents.get(current)
        text = ".".join(reversed(names))
        self._scope_ids[node] = text
        return text


_MISSING: ast.AST = ast.AST()  # "not remembered yet" (None is a real answer)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


_line_col = operator.attrgetter("lineno", "col_offset")


def _sort(kind: type, nodes: list[ast.AST]) -> None:
    """Sort nodes of one type by position, as ``sort(key=_position)`` does, for less."""
    if "lineno" not in getattr(kind, "_attributes", ()):
        return  # no position: every key would be (0, 0), and the sort is stable
    try:
        nodes.sort(key=_line_col)  # every parsed node has both
    except AttributeError:  # a node made by hand: the list is untouched, keys come first
        nodes.sort(key=_position)
