"""Terms: an expression of one block with its local names replaced by what reaches them.

A term is a small, hashable tree that no longer needs the block's scopes to be understood:
``x = tf.constant(1); y = x + 1`` gives ``y`` the term
``binop(Add, call(attr(entry(tf), constant), const(1)), const(1))``.  Names that come from outside
the block stay symbolic: ``entry(name)`` (module code: the value an earlier block left),
``global(name)`` (a function reading a module name when it runs), ``import(qualname)``.
Functions and classes of the block are ``def(id)``/``class(id)``; parameters ``param(id, name)``,
``self(class id)``.  The module model (:mod:`.model`) evaluates terms to values.

Terms are what the block tells the rest of the module (its facts compare by value), so an edit
that changes no term leaves the module model as it was.  Their size is capped: a huge literal
becomes ``unknown`` rather than a slow hash.
"""

from __future__ import annotations

import ast
from typing import Any

from tflsp.analysis.index import NodeIndex
from tflsp.analysis.semantic.flow import ENTRY, BlockFlow, Reach, Scope

MAX_SIZE = 400


class Term:
    """One node of a term: a tag and its arguments (terms, strings, numbers, tuples of them)."""

    __slots__ = ("_hash", "args", "size", "tag")

    tag: str
    args: tuple[Any, ...]
    size: int
    _hash: int

    def __init__(self, tag: str, *args: Any) -> None:
        self.tag = tag
        self.args = args
        size = 1
        for arg in args:
            if isinstance(arg, Term):
                size += arg.size
            elif isinstance(arg, tuple):
                for item in arg:
                    if isinstance(item, Term):
                        size += item.size
                    elif isinstance(item, tuple):
                        size += sum(i.size for i in item if isinstance(i, Term))
        self.size = size
        # 1 == True == 1.0 in Python: a constant's type is part of it, or `Dense(1)` and
        # `mask_zero=True` would share a memo entry.
        self._hash = hash((tag, args, type(args[0]))) if tag == "const" else hash((tag, args))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Term) or self._hash != other._hash:
            return False
        if self.tag != other.tag or self.args != other.args:
            return False
        return self.tag != "const" or type(self.args[0]) is type(other.args[0])

    def __repr__(self) -> str:
        inner = ", ".join(repr(a) for a in self.args)
        return f"{self.tag}({inner})"


UNKNOWN = Term("unknown")
CYCLE = Term("cycle")


def union(parts: list[Term]) -> Term:
    unique: list[Term] = []
    for part in parts:
        items = part.args if part.tag == "union" else (part,)
        for item in items:
            if item not in unique:
                unique.append(item)
    if len(unique) == 1:
        return unique[0]
    return Term("union", *unique) if unique else Term("nothing")


_CONST_TYPES = (str, bytes, int, float, complex, bool, type(None), type(...))


class TermBuilder:
    """Builds terms for the expressions of one block (memoized by node)."""

    def __init__(self, flow: BlockFlow) -> None:
        self.flow = flow
        self._exprs: dict[ast.AST, Term] = {}
        self._bindings: dict[ast.AST, Term] = {}
        self._building: set[ast.AST] = set()
        # Where a term was cut short: a binding met again while it was being built (a loop
        # carrying a value), or a recursion too deep.  What is memoised around a cut depends
        # on which node was asked first, so what a block's facts say there is not reused in
        # another version of the block (see ``block.MethodSem``).
        self.cuts: list[ast.AST] = []

    @property
    def index(self) -> NodeIndex:
        return self.flow.index  # held weakly (see ``BlockFlow.index``)

    # -- names ------------------------------------------------------------------------------
    def reach_terms(self, reach: Reach, name: str, at: ast.AST) -> Term:
        parts = [self.binding(d) for d in reach.defs]
        if reach.outer:
            parts.append(self.outer(name, at))
        return union(parts)

    def outer(self, name: str, at: ast.AST) -> Term:
        """The value of a name that comes from outside the scope of ``at``."""
        scope: Scope | None = self.flow.scope_of(at)
        while scope is not None and scope.kind in ("class", "comprehension"):
            scope = scope.parent
        if scope is None or scope.kind == "module":
            return Term("entry", name)
        if name in scope.globals:
            return Term("global", name)
        return self.free(scope.parent, name)

    def free(self, scope: Scope | None, name: str) -> Term:
        """A free name of a function: the enclosing function's binding (any of them: the
        closure reads it when it runs) or the module's."""
        while scope is not None:
            if scope.kind == "function":
                if name in scope.globals:
                    return Term("global", name)
                if name in scope.locals:
                    found = scope.bindings.get(name, [])
                    return union([self.binding(d) for d in found]) if found else UNKNOWN
            if scope.kind == "module":
                break
            scope = scope.parent
        return Term("global", name)

    def binding(self, node: ast.AST) -> Term:
        found = self._bindings.get(node)
        if found is not None:
            return found
        if node in self._building:
            self.cuts.append(node)
            return CYCLE
        self._building.add(node)
        try:
            term = self._binding(node)
        except RecursionError:
            self.cuts.append(node)
            term = UNKNOWN
        finally:
            self._building.discard(node)
        if term.size > MAX_SIZE:
            term = UNKNOWN
        self._bindings[node] = term
        return term

    def _binding(self, node: ast.AST) -> Term:
        if node is ENTRY:
            return UNKNOWN
        if isinstance(node, ast.Name):
            return self._stored(node)
        if isinstance(node, ast.alias):
            return self._import(node)
        if isinstance(node, ast.arg):
            return self._param(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return Term("def", self.flow.local_ids.get(node, ""))
        if isinstance(node, ast.ClassDef):
            return Term("class", self.flow.local_ids.get(node, node.name))
        return UNKNOWN

    def _stored(self, node: ast.Name) -> Term:
        path: list[int] = []
        child: ast.AST = node
        parent = self.index.parent(node)
        while isinstance(parent, (ast.Tuple, ast.List, ast.Starred)):
            if isinstance(parent, ast.Starred):
                return UNKNOWN  # ``a, *rest = ...``: a slice
            path.append(parent.elts.index(child))  # type: ignore[arg-type]
            child, parent = parent, self.index.parent(parent)
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            if parent.value is None:
                return UNKNOWN
            base = self.expr(parent.value)
        elif isinstance(parent, ast.AugAssign):
            before = self.flow.before.get(node)
            old = self.reach_terms(before, node.id, node) if before is not None else UNKNOWN
            return Term("binop", type(parent.op).__name__, old, self.expr(parent.value))
        elif isinstance(parent, ast.NamedExpr):
            base = self.expr(parent.value)
        elif isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
            base = Term("iter", self.expr(parent.iter))
        elif isinstance(parent, ast.withitem):
            base = Term("enter", self.expr(parent.context_expr))
        else:
            return UNKNOWN
        for position in reversed(path):
            base = Term("item", base, position)
        return base

    def _import(self, alias: ast.alias) -> Term:
        stmt = self.index.parent(alias)
        if isinstance(stmt, ast.Import):
            return Term("import", alias.name if alias.asname else alias.name.split(".", 1)[0])
        if isinstance(stmt, ast.ImportFrom):
            if stmt.level:
                return Term("relimport", stmt.level, stmt.module or "", alias.name)
            return Term("import", f"{stmt.module}.{alias.name}")
        return UNKNOWN

    def _param(self, arg: ast.arg) -> Term:
        arguments = self.index.parent(arg)
        fn = self.index.parent(arguments) if arguments is not None else None
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return UNKNOWN
        fid = self.flow.local_ids.get(fn, "")
        owner = self.index.parent(fn)
        if isinstance(owner, ast.ClassDef) and not isinstance(fn, ast.Lambda):
            positional = [*fn.args.posonlyargs, *fn.args.args]
            if positional and positional[0] is arg:
                kinds = {_decorator_name(d) for d in fn.decorator_list}
                cls_id = self.flow.local_ids.get(owner, owner.name)
                if "staticmethod" in kinds:
                    return Term("param", fid, arg.arg)
                if "classmethod" in kinds or fn.name in ("__new__", "__init_subclass__"):
                    return Term("class", cls_id)
                return Term("self", cls_id)
        return Term("param", fid, arg.arg)

    # -- expressions ------------------------------------------------------------------------
    def expr(self, node: ast.AST) -> Term:
        found = self._exprs.get(node)
        if found is not None:
            return found
        try:
            term = self._expr(node)
        except RecursionError:
            self.cuts.append(node)
            term = UNKNOWN
        if term.size > MAX_SIZE:
            term = UNKNOWN
        self._exprs[node] = term
        return term

    def _expr(self, node: ast.AST) -> Term:
        if isinstance(node, ast.Constant):
            constant = node.value
            return Term("const", constant) if isinstance(constant, _CONST_TYPES) else UNKNOWN
        if isinstance(node, ast.Name):
            reach = self.flow.uses.get(node)
            if reach is None:
                return UNKNOWN
            return self.reach_terms(reach, node.id, node)
        if isinstance(node, ast.Attribute):
            return Term("attr", self.expr(node.value), node.attr)
        if isinstance(node, ast.Call):
            args = tuple(self.expr(a) for a in node.args)
            kwargs = tuple((kw.arg, self.expr(kw.value)) for kw in node.keywords)
            return Term("call", self.expr(node.func), args, kwargs)
        if isinstance(node, ast.Starred):
            return Term("star", self.expr(node.value))
        if isinstance(node, ast.BinOp):
            return Term(
                "binop", type(node.op).__name__, self.expr(node.left), self.expr(node.right)
            )
        if isinstance(node, ast.UnaryOp):
            return Term("unary", type(node.op).__name__, self.expr(node.operand))
        if isinstance(node, ast.BoolOp):
            return union([self.expr(v) for v in node.values])
        if isinstance(node, ast.Compare):
            operands = tuple(self.expr(e) for e in (node.left, *node.comparators))
            return Term("compare", tuple(type(op).__name__ for op in node.ops), operands)
        if isinstance(node, ast.IfExp):
            return union([self.expr(node.body), self.expr(node.orelse)])
        if isinstance(node, ast.JoinedStr):
            parts: list[Term] = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    if value.format_spec is not None or value.conversion not in (-1, 115):
                        parts.append(UNKNOWN)
                    else:
                        parts.append(Term("str", self.expr(value.value)))
                else:
                    parts.append(self.expr(value))
            return Term("fstr", tuple(parts))
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            tag = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set"}[type(node)]
            return Term(tag, tuple(self.expr(e) for e in node.elts))
        if isinstance(node, ast.Dict):
            keys = tuple(self.expr(k) if k is not None else UNKNOWN for k in node.keys)
            return Term("dict", keys, tuple(self.expr(v) for v in node.values))
        if isinstance(node, ast.Subscript):
            return Term("sub", self.expr(node.value), self.expr(node.slice))
        if isinstance(node, ast.Lambda):
            return Term("def", self.flow.local_ids.get(node, ""))
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            kind = {ast.ListComp: "list", ast.SetComp: "set", ast.GeneratorExp: "gen"}[type(node)]
            return Term("comp", kind, self.expr(node.elt))
        if isinstance(node, ast.DictComp):
            return Term("comp", "dict", self.expr(node.value))
        if isinstance(node, ast.NamedExpr):
            return self.expr(node.value)
        if isinstance(node, ast.Await):
            return Term("await", self.expr(node.value))
        return UNKNOWN


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return ""
