"""Scopes and reaching definitions inside one block: which bindings a name may hold at each use.

One walk over a block's statements, in execution order, keeps for every name the set of
binding nodes that may have produced its current value.  Branches are joined (after an
``if``/``else`` a name holds what either branch bound), loops are iterated to a fixed point,
``try`` handlers see every state of the ``try`` body, ``break``/``continue``/``return``/``raise``
end a path, ``match`` cases bind their captures.  Function and lambda bodies are walked as their
own scopes; a class body runs in place with its own names; comprehensions too.

For each ``Name`` load the walk records a :class:`Reach`: the binding nodes in this scope that
reach it, and whether the value may come from outside the scope (the block's entry for module
code: an earlier block of the module; the enclosing function or the module for free names in a
function).  Bindings are AST nodes: the ``Name`` stored to, an ``alias`` of an import, an ``arg``,
a ``def``/``class``, an ``except ... as`` handler, a match capture.

Everything here is computed from the block's own tree and cached with it.
"""

from __future__ import annotations

import ast
import copy
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

from tflsp.analysis.index import NodeIndex

Env = dict[str, frozenset[ast.AST]]
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_TRY = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if isinstance(t, type))
_MAX_LOOP_DEPTH = 4  # deeper loops are walked once (a sound-enough approximation)

# The value a name had when the scope began (module code: from an earlier block).
ENTRY: ast.AST = ast.Pass()


@dataclass(frozen=True, slots=True)
class Reach:
    """What may reach one use of a name."""

    defs: tuple[ast.AST, ...]  # bindings in the use's own scope (or enclosing class body)
    outer: bool  # the value from outside the scope may reach too


@dataclass(eq=False)
class Scope:
    node: ast.AST  # Module, FunctionDef/AsyncFunctionDef/Lambda, ClassDef or a comprehension
    kind: str  # module | function | class | comprehension
    parent: Scope | None
    local_id: str = ""  # functions and classes: their id in the block (``Model.call``)
    locals: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    # Every binding of each local name, in source order (closures read a name at call time).
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)
    returns: list[ast.Return] = field(default_factory=list)
    is_generator: bool = False
    star_import: bool = False

    def add_binding(self, name: str, node: ast.AST) -> None:
        self.bindings.setdefault(name, []).append(node)


@dataclass(frozen=True, slots=True)
class _MemberFlow:
    """What walking one method of a block's class added to the flow, in order.  A method's
    walk reads nothing outside its own subtree (a function reads enclosing names when it
    runs, as ``outer``), so the same method node walked again would add the same."""

    ids: tuple[str, ...]  # the local ids of its scopes, which its scopes carry
    uses: list[tuple[ast.Name, Reach]]
    before: list[tuple[ast.AST, Reach]]
    scopes: list[tuple[ast.AST, Scope]]


class BlockFlow:
    """Reaching definitions for every name use of one block."""

    def __init__(self, index: NodeIndex, donor: BlockFlow | None = None) -> None:
        """``donor``: the flow of the block's last version, whose tree shares the methods the
        edit left alone with this one (see :mod:`tflsp.analysis.graft`): what its walk found
        in them is taken instead of walking them again."""
        self._index = weakref.ref(index)
        # The methods of the block's class, each with what walking it added (see _MemberFlow).
        self.members: dict[ast.AST, _MemberFlow] = {}
        self._donor = donor.members if donor is not None else None
        self.uses: dict[ast.Name, Reach] = {}
        # ``x += 1``: what ``x`` held just before (the target node is a Store).
        self.before: dict[ast.AST, Reach] = {}
        self.scopes: dict[ast.AST, Scope] = {}
        self.local_ids: dict[ast.AST, str] = {}
        self._scope_memo: dict[ast.AST, Scope] = {}
        # Module code: name -> (bindings live at the end, may the entry value survive).
        self.exports: dict[str, tuple[tuple[ast.AST, ...], bool]] = {}
        # ``global x`` then ``x = ...`` inside functions: module names written at any time.
        self.global_writes: dict[str, list[ast.AST]] = {}
        body = index.tree.body
        # A block that is one class: its methods' walks are kept for its next version.
        self.top_class = body[0] if len(body) == 1 and isinstance(body[0], ast.ClassDef) else None
        self.module = Scope(index.tree, "module", None)
        self._assign_ids()
        self.scopes[index.tree] = self.module
        self.prepared = _prepare_all(index)
        self.top_loads, self.complex_tops = _group_loads(index)
        _prepare(self.module, self.prepared)
        walker = _Walker(self, self.module)
        end = walker.body(index.tree.body, {})
        walker.finish()
        self._donor = None  # (the last version's flow is not kept alive by this one)
        if end is None:
            end = {}
        for name, defs in end.items():
            real = tuple(d for d in _ordered(defs) if d is not ENTRY)
            if real:
                self.exports[name] = (real, ENTRY in defs)

    @property
    def index(self) -> NodeIndex:
        # Held weakly: the index keeps this flow alive in its memo (``facts.semantics_of``),
        # and a strong link back would make every block's analysis a reference cycle, freed
        # only by the cyclic collector (a third of a batch run's time).
        index = self._index()
        assert index is not None, "the block's index was released before its flow"
        return index

    def __getstate__(self) -> dict[str, object]:  # the weak link pickles as the index itself
        return {**self.__dict__, "_index": self.index}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._index = weakref.ref(state["_index"])  # type: ignore[arg-type]

    def _assign_ids(self) -> None:
        seen: dict[str, int] = {}
        nodes: list[ast.AST] = [
            *self.index.functions(),
            *self.index.nodes(ast.ClassDef),
            *self.index.nodes(ast.Lambda),
        ]
        nodes.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        lambdas: dict[str, int] = {}
        for node in nodes:
            if isinstance(node, ast.Lambda):
                # Numbered in source order inside their scope (not by line: a line inserted
                # above must not rename them).
                outer = self.index.enclosing_scope(node)
                prefix = self.local_ids.get(outer, "") if outer is not None else ""
                n = lambdas.get(prefix, 0) + 1
                lambdas[prefix] = n
                base = f"{prefix}.<lambda{n}>" if prefix else f"<lambda{n}>"
            else:
                base = self.index.scope_id(node)
            count = seen.get(base, 0) + 1
            seen[base] = count
            self.local_ids[node] = base if count == 1 else f"{base}#{count}"

    def scope_of(self, node: ast.AST) -> Scope:
        """The scope a node's names are looked up in (its innermost function, class, ...)."""
        found = self._scope_memo.get(node)
        if found is None:
            found = self._scope_memo[node] = self._scope_of(node)
        return found

    def _scope_of(self, node: ast.AST) -> Scope:
        child = node
        for parent in self.index.ancestors(node):
            found = self.scopes.get(parent)
            if found is not None:
                if isinstance(parent, _DEFS) and _in_body_statement(child, node):
                    return found  # the common case, without scanning the whole body
                if isinstance(parent, (*FUNCTION_NODES, ast.ClassDef)) and _in_header(parent, node):
                    continue  # decorators, defaults and bases run in the enclosing scope
                return found
            child = parent
        return self.module


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _in_body_statement(child: ast.AST, node: ast.AST) -> bool:
    """``node`` lies in ``child``, a statement of a def's or class's body: what
    :func:`_in_header` finds scanning the body, at once.  (Every statement below a def or
    class is in its body; anything else answers False and the scan decides.)"""
    return isinstance(child, ast.stmt) and (node is child or _contains(child, node))


def _in_header(scope_node: ast.AST, node: ast.AST) -> bool:
    """Is ``node`` part of a def's decorators/defaults or a class's bases (not its body)?"""
    if isinstance(scope_node, ast.Lambda):
        return any(node is d or _contains(d, node) for d in scope_node.args.defaults)
    body = scope_node.body  # type: ignore[attr-defined]
    return not any(node is s or _contains(s, node) for s in body)


def _contains(tree: ast.AST, node: ast.AST) -> bool:
    start = (getattr(tree, "lineno", 0), getattr(tree, "col_offset", 0))
    end = (getattr(tree, "end_lineno", 0) or 0, getattr(tree, "end_col_offset", 0) or 0)
    here = (getattr(node, "lineno", -1), getattr(node, "col_offset", -1))
    return start <= here < end or here == start


def _ordered(defs: Iterable[ast.AST]) -> list[ast.AST]:
    return sorted(defs, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


# -- scope preparation: which names a scope binds ---------------------------------------------
@dataclass(eq=False)
class _Prepared:
    locals: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    star_import: bool = False
    is_generator: bool = False


_BINDERS: tuple[type, ...] = (
    ast.Name,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Import,
    ast.ImportFrom,
    ast.Global,
    ast.Nonlocal,
    ast.ExceptHandler,
    ast.MatchAs,
    ast.MatchStar,
    ast.MatchMapping,
    ast.Yield,
    ast.YieldFrom,
)


def _prepare_all(index: NodeIndex) -> dict[ast.AST, _Prepared]:
    """Every scope's own names in one pass over the block's binding nodes (Python's rule: a
    name bound anywhere in a function is local to it)."""
    out: dict[ast.AST, _Prepared] = {}
    bodies: dict[ast.AST, set[int]] = {}

    def owner(node: ast.AST, walrus: bool = False) -> ast.AST | None:
        child = node
        for parent in index.ancestors(node):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                body = bodies.get(parent)
                if body is None:
                    body = bodies[parent] = {id(s) for s in parent.body}
                if id(child) in body:
                    return parent
            elif isinstance(parent, ast.Lambda):
                if child is parent.body:
                    return parent
            elif isinstance(parent, COMPREHENSIONS):
                first = parent.generators[0].iter
                if child is not first and not walrus:
                    return None  # a comprehension's own name
            elif isinstance(parent, ast.Module):
                return parent
            child = parent
        return None

    def add(scope: ast.AST | None, name: str) -> None:
        if scope is not None:
            out.setdefault(scope, _Prepared()).locals.add(name)

    for kind in _BINDERS:
        node: ast.AST
        for node in index.nodes(kind):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, (ast.Store, ast.Del)):
                    parent = index.parent(node)
                    walrus = isinstance(parent, ast.NamedExpr) and parent.target is node
                    add(owner(node, walrus), node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                add(owner(node), node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                scope = owner(node)
                for alias in node.names:
                    if alias.name == "*":
                        if scope is not None:
                            out.setdefault(scope, _Prepared()).star_import = True
                    else:
                        add(scope, (alias.asname or alias.name).split(".", 1)[0])
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                scope = owner(node)
                if scope is not None:
                    prepared = out.setdefault(scope, _Prepared())
                    names = prepared.globals if isinstance(node, ast.Global) else prepared.nonlocals
                    names.update(node.names)
            elif isinstance(node, (ast.Yield, ast.YieldFrom)):
                scope = owner(node)
                if scope is not None:
                    out.setdefault(scope, _Prepared()).is_generator = True
            elif isinstance(node, ast.MatchMapping):
                if node.rest:
                    add(owner(node), node.rest)
            else:
                name = getattr(node, "name", None)
                if isinstance(name, str) and name:
                    add(owner(node), name)
    return out


_NESTED = (ast.Lambda, ast.NamedExpr, *COMPREHENSIONS)
_NOT_EXPR = (ast.stmt, ast.withitem, ast.arguments, ast.keyword, ast.ExceptHandler, ast.match_case)
# Nodes that sit inside an expression: a call's keywords, a comprehension's generators, a
# lambda's arguments.
_WITHIN_EXPRESSIONS = (ast.expr, ast.keyword, ast.comprehension, ast.arguments, ast.arg)


def _group_loads(index: NodeIndex) -> tuple[dict[int, list[ast.Name]], set[int]]:
    """Name loads grouped by the outermost expression holding them (a statement's value, a
    test, a decorator...), so the walk records them without walking expressions; expressions
    with their own scopes or bindings inside (lambdas, comprehensions, ``:=``) are walked."""
    loads: dict[int, list[ast.Name]] = {}
    complex_tops: set[int] = set()
    parents = index.parents
    for node in index.nodes(ast.Name):
        if not isinstance(node.ctx, ast.Load):
            continue
        top: ast.AST = node
        nested = False
        parent = parents.get(node)
        while isinstance(parent, _WITHIN_EXPRESSIONS):
            if isinstance(parent, _NESTED):
                nested = True
            if isinstance(parent, ast.expr):
                top = parent
            parent = parents.get(parent)
        if nested:
            complex_tops.add(id(top))
        else:
            loads.setdefault(id(top), []).append(node)
    for kind in _NESTED:
        for found in index.nodes(kind):
            top = found
            parent = parents.get(found)
            while isinstance(parent, _WITHIN_EXPRESSIONS):
                if isinstance(parent, ast.expr):
                    top = parent
                parent = parents.get(parent)
            complex_tops.add(id(top))
    return loads, complex_tops


def _prepare(scope: Scope, prepared: dict[ast.AST, _Prepared]) -> None:
    found = prepared.get(scope.node)
    if found is not None:
        scope.locals |= found.locals
        scope.globals |= found.globals
        scope.nonlocals |= found.nonlocals
        scope.star_import = found.star_import
        scope.is_generator = found.is_generator
    if scope.kind != "module":
        scope.locals -= scope.globals | scope.nonlocals


# -- the walk -------------------------------------------------------------------------------------
class _Walker:
    def __init__(
        self,
        flow: BlockFlow,
        scope: Scope,
        outer_env: Env | None = None,
        outer: _Walker | None = None,
    ) -> None:
        self.flow = flow
        self.scope = scope
        # A class body or comprehension reads enclosing names as they are right now.
        self.outer_env = outer_env
        self.outer = outer
        self.loops: list[tuple[list[Env], list[Env]]] = []  # (breaks, continues)
        self.depth = 0
        self.pending: list[ast.AST] = []  # nested functions/lambdas, walked after this scope

    # -- lookups ----------------------------------------------------------------------------
    def lookup(self, name: str, env: Env) -> Reach:
        scope = self.scope
        if scope.kind == "module":
            defs = env.get(name)
            if defs is None:
                return Reach((), True)
            return Reach(tuple(d for d in _ordered(defs) if d is not ENTRY), ENTRY in defs)
        if name in scope.globals or name in scope.nonlocals:
            return Reach((), True)
        if name in scope.locals:
            defs = env.get(name)
            if defs is None:
                if self.outer_env is not None and self.outer is not None:
                    # A class-body name read before the class binds it: the enclosing value.
                    return self.outer.lookup(name, self.outer_env)
                return Reach((), False)
            return Reach(tuple(_ordered(defs)), False)
        if self.outer_env is not None and self.outer is not None:
            return self.outer.lookup(name, self.outer_env)
        return Reach((), True)

    def bind(self, name: str, node: ast.AST, env: Env) -> None:
        scope = self.scope
        if scope.kind != "module" and name in scope.globals:
            self.flow.global_writes.setdefault(name, []).append(node)
            return
        if scope.kind == "comprehension" and isinstance(node, ast.Name):
            parent = self.flow.index.parent(node)
            if isinstance(parent, ast.NamedExpr) and self.outer is not None:
                # A walrus in a comprehension binds in the enclosing function.
                assert self.outer_env is not None
                self.outer.bind(name, node, self.outer_env)
                return
        scope.add_binding(name, node)
        env[name] = frozenset((node,))

    # -- statements -------------------------------------------------------------------------
    def body(self, stmts: Iterable[ast.stmt], env: Env) -> Env | None:
        current: Env | None = dict(env)
        for stmt in stmts:
            if current is None:
                break
            current = self.stmt(stmt, current)
        return current

    def stmt(self, stmt: ast.stmt, env: Env) -> Env | None:
        if isinstance(stmt, ast.Expr):
            self.expr(stmt.value, env)
        elif isinstance(stmt, ast.Assign):
            self.expr(stmt.value, env)
            for target in stmt.targets:
                self.target(target, env)
        elif isinstance(stmt, ast.AugAssign):
            self.expr(stmt.value, env)
            target = stmt.target
            if isinstance(target, ast.Name):
                self.flow.before[target] = self.lookup(target.id, env)
                self.bind(target.id, target, env)
            else:
                self.target(target, env)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.expr(stmt.value, env)
                self.target(stmt.target, env)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for expr in (*stmt.decorator_list, *stmt.args.defaults):
                self.expr(expr, env)
            for default in stmt.args.kw_defaults:
                if default is not None:
                    self.expr(default, env)
            self.pending.append(stmt)
            self.bind(stmt.name, stmt, env)
        elif isinstance(stmt, ast.ClassDef):
            for expr in (*stmt.decorator_list, *stmt.bases, *(k.value for k in stmt.keywords)):
                self.expr(expr, env)
            self.class_body(stmt, env)
            self.bind(stmt.name, stmt, env)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name != "*":
                    name = (alias.asname or alias.name).split(".", 1)[0]
                    self.bind(name, alias, env)
        elif isinstance(stmt, ast.If):
            self.expr(stmt.test, env)
            return _join(self, self.body(stmt.body, env), self.body(stmt.orelse, env))
        elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return self.loop(stmt, env)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.expr(item.context_expr, env)
                if item.optional_vars is not None:
                    self.target(item.optional_vars, env)
            return self.body(stmt.body, env)
        elif isinstance(stmt, _TRY):
            return self.try_(stmt, env)
        elif isinstance(stmt, ast.Match):
            return self.match(stmt, env)
        elif isinstance(stmt, ast.Return):
            if stmt.value is not None:
                self.expr(stmt.value, env)
            if self.scope.kind == "function":
                self.scope.returns.append(stmt)
            return None
        elif isinstance(stmt, ast.Raise):
            for raised in (stmt.exc, stmt.cause):
                if raised is not None:
                    self.expr(raised, env)
            return None
        elif isinstance(stmt, (ast.Break, ast.Continue)):
            if self.loops:
                self.loops[-1][0 if isinstance(stmt, ast.Break) else 1].append(dict(env))
            return None
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    if self.scope.kind == "module" or target.id in self.scope.locals:
                        env[target.id] = frozenset()
                else:
                    self.expr(target, env)
        elif isinstance(stmt, ast.Assert):
            self.expr(stmt.test, env)
            if stmt.msg is not None:
                self.expr(stmt.msg, env)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.expr(child, env)
        return env

    def target(self, target: ast.expr, env: Env) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, target, env)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.target(elt, env)
        elif isinstance(target, ast.Starred):
            self.target(target.value, env)
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            self.expr(target, env)  # its parts are loads

    def loop(self, stmt: ast.For | ast.AsyncFor | ast.While, env: Env) -> Env | None:
        is_for = isinstance(stmt, (ast.For, ast.AsyncFor))
        if is_for:
            self.expr(stmt.iter, env)  # type: ignore[union-attr]
        head = dict(env)
        rounds = 3 if self.depth < _MAX_LOOP_DEPTH else 1
        breaks: list[Env] = []
        self.depth += 1
        try:
            for _ in range(rounds):
                if not is_for:
                    self.expr(stmt.test, head)  # type: ignore[union-attr]
                self.loops.append(([], []))
                inner = dict(head)
                if is_for:
                    self.target(stmt.target, inner)  # type: ignore[union-attr]
                end = self.body(stmt.body, inner)
                breaks, continues = self.loops.pop()
                new_head = _join(self, head, end, *continues)
                assert new_head is not None
                if new_head == head:
                    break
                head = new_head
        finally:
            self.depth -= 1
        endless = (
            not is_for
            and isinstance(stmt.test, ast.Constant)  # type: ignore[union-attr]
            and bool(stmt.test.value)  # type: ignore[union-attr]
        )
        after: Env | None = None if endless else self.body(stmt.orelse, head)
        return _join(self, after, *breaks)

    def try_(self, stmt: ast.stmt, env: Env) -> Env | None:
        handler_env: Env = dict(env)
        current: Env | None = dict(env)
        for child in stmt.body:  # type: ignore[attr-defined]
            if current is None:
                break
            current = self.stmt(child, current)
            if current is not None:
                joined = _join(self, handler_env, current)
                assert joined is not None
                handler_env = joined
        normal = self.body(stmt.orelse, current) if current is not None else None  # type: ignore[attr-defined]
        ends: list[Env | None] = [normal]
        for handler in stmt.handlers:  # type: ignore[attr-defined]
            start = dict(handler_env)
            if handler.type is not None:
                self.expr(handler.type, start)
            if handler.name:
                self.bind(handler.name, handler, start)
            ends.append(self.body(handler.body, start))
        result = _join(self, *ends)
        final = stmt.finalbody  # type: ignore[attr-defined]
        if final:
            entry = _join(self, result, handler_env)
            assert entry is not None
            end = self.body(final, entry)
            return end if result is not None else None
        return result

    def match(self, stmt: ast.Match, env: Env) -> Env | None:
        self.expr(stmt.subject, env)
        ends: list[Env | None] = [env]
        for case in stmt.cases:
            start = dict(env)
            for node in ast.walk(case.pattern):
                if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                    self.bind(node.name, node, start)
                elif isinstance(node, ast.MatchMapping) and node.rest:
                    self.bind(node.rest, node, start)
                elif isinstance(node, ast.MatchValue):
                    self.expr(node.value, start)
            if case.guard is not None:
                self.expr(case.guard, start)
            ends.append(self.body(case.body, start))
        return _join(self, *ends)

    def class_body(self, node: ast.ClassDef, env: Env) -> None:
        scope = Scope(node, "class", self.scope, self.flow.local_ids.get(node, node.name))
        _prepare(scope, self.flow.prepared)
        self.flow.scopes[node] = scope
        walker = _Walker(self.flow, scope, dict(env), self)
        walker.body(node.body, {})
        walker.finish()

    # -- expressions ------------------------------------------------------------------------
    def expr(self, node: ast.expr, env: Env) -> None:
        key = id(node)
        flow = self.flow
        if key not in flow.complex_tops and isinstance(flow.index.parents.get(node), _NOT_EXPR):
            # The outermost expression of a statement part: its loads are known already.
            for name in flow.top_loads.get(key, ()):
                flow.uses[name] = self.lookup(name.id, env)
            return
        stack: list[ast.AST] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, ast.Name):
                if isinstance(current.ctx, ast.Load):
                    self.flow.uses[current] = self.lookup(current.id, env)
                continue
            if isinstance(current, ast.NamedExpr):
                self.expr(current.value, env)
                if isinstance(current.target, ast.Name):
                    self.bind(current.target.id, current.target, env)
                continue
            if isinstance(current, ast.Lambda):
                stack.extend(current.args.defaults)
                stack.extend(d for d in current.args.kw_defaults if d is not None)
                self.pending.append(current)
                continue
            if isinstance(current, COMPREHENSIONS):
                self.comprehension(current, env)
                continue
            stack.extend(ast.iter_child_nodes(current))

    def comprehension(self, node: ast.AST, env: Env) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        self.expr(generators[0].iter, env)
        scope = Scope(node, "comprehension", self.scope)
        for gen in generators:
            for sub in ast.walk(gen.target):
                if isinstance(sub, ast.Name):
                    scope.locals.add(sub.id)
        self.flow.scopes[node] = scope
        walker = _Walker(self.flow, scope, env, self)
        inner: Env = {}
        for i, gen in enumerate(generators):
            if i:
                walker.expr(gen.iter, inner)
            walker.target(gen.target, inner)
            for cond in gen.ifs:
                walker.expr(cond, inner)
        if isinstance(node, ast.DictComp):
            walker.expr(node.key, inner)
            walker.expr(node.value, inner)
        else:
            walker.expr(node.elt, inner)  # type: ignore[attr-defined]
        walker.finish()

    # -- nested functions -------------------------------------------------------------------
    def finish(self) -> None:
        """Walk the functions and lambdas this scope defined (they run later, on a call)."""
        members = self.scope.node is self.flow.top_class  # (see BlockFlow.members)
        while self.pending:
            fn = self.pending.pop(0)
            if members:
                self._member(fn)
            else:
                self._function(fn)

    def _member(self, fn: ast.AST) -> None:
        """Walk a method of the block's class, or take what the last version's walk of the
        same node found; either way, remember it for the next version."""
        flow = self.flow
        donor = flow._donor
        kept = donor.get(fn) if donor is not None else None
        if kept is not None and kept.ids == tuple(
            flow.local_ids.get(n, "") for n, _ in kept.scopes
        ):
            flow.uses.update(kept.uses)
            flow.before.update(kept.before)
            copies: dict[int, Scope] = {}
            taken: list[tuple[ast.AST, Scope]] = []
            for node, old in kept.scopes:
                # The method's scopes, hung under this class scope: the last version's would
                # keep its class, and through its bindings its tree, alive.
                new = copy.copy(old)
                new.parent = copies.get(id(old.parent), self.scope)
                copies[id(old)] = flow.scopes[node] = new
                taken.append((node, new))
            flow.members[fn] = _MemberFlow(kept.ids, kept.uses, kept.before, taken)
            return
        # The walk writes into empty tables (it reads none of them), so what it added is
        # known without a scan; its keys are the method's own nodes, new to the flow.
        uses, before, scopes = flow.uses, flow.before, flow.scopes
        flow.uses, flow.before, flow.scopes = {}, {}, {}
        writes = sum(map(len, flow.global_writes.values()))
        try:
            self._function(fn)
        finally:
            own = _MemberFlow(
                tuple(flow.local_ids.get(n, "") for n in flow.scopes),
                list(flow.uses.items()),
                list(flow.before.items()),
                list(flow.scopes.items()),
            )
            uses.update(flow.uses)
            before.update(flow.before)
            scopes.update(flow.scopes)
            flow.uses, flow.before, flow.scopes = uses, before, scopes
        if sum(map(len, flow.global_writes.values())) == writes:
            flow.members[fn] = own  # (``global`` writes are not recorded: walked each time)

    def _function(self, fn: ast.AST) -> None:
        scope = Scope(fn, "function", self.scope, self.flow.local_ids.get(fn, ""))
        self.flow.scopes[fn] = scope
        args = fn.args  # type: ignore[attr-defined]
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        params.extend(p for p in (args.vararg, args.kwarg) if p is not None)
        scope.locals.update(p.arg for p in params)
        _prepare(scope, self.flow.prepared)
        env: Env = {}
        for param in params:
            scope.add_binding(param.arg, param)
            env[param.arg] = frozenset((param,))
        walker = _Walker(self.flow, scope, None, self)
        if isinstance(fn, ast.Lambda):
            walker.expr(fn.body, env)
        else:
            walker.body(fn.body, env)  # type: ignore[attr-defined]
        walker.finish()


def _join(walker: _Walker, *envs: Env | None) -> Env | None:
    live = [e for e in envs if e is not None]
    if not live:
        return None
    if len(live) == 1:
        return dict(live[0])
    module = walker.scope.kind == "module"
    names: set[str] = set()
    for e in live:
        names.update(e)
    out: Env = {}
    for name in names:
        merged: set[ast.AST] = set()
        for e in live:
            defs = e.get(name)
            if defs is None:
                if module:
                    merged.add(ENTRY)
            else:
                merged.update(defs)
        out[name] = frozenset(merged)
    return out
