"""What one block tells the module model, computed from the block alone and cached with it.

Facts hold no line numbers (calls, functions and classes are in source order), so a line
inserted inside a function leaves them, and the module model, as they were.

:class:`BlockSemantics` holds the block's flow (:mod:`.flow`) and term builder (:mod:`.terms`),
which detectors use through the context, and :class:`SemanticFacts`, the hashable part the module
model combines: the module names the block binds (in order), its functions and classes, and its
calls.  Facts compare by value, so an edit that changes none of them keeps the module model.
"""

from __future__ import annotations

import ast
import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from tflsp.analysis.index import NodeIndex
from tflsp.analysis.semantic.flow import BlockFlow, Scope
from tflsp.analysis.semantic.terms import Term, TermBuilder, union

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


Guards = tuple[tuple[Term, bool], ...]


@dataclass(frozen=True, slots=True)
class FunctionSem:
    local_id: str
    name: str  # ``<lambda>`` for lambdas
    class_id: str | None  # the class when this is a method
    parent_id: str | None  # the enclosing function when nested
    decorators: tuple[Term, ...]  # outermost first, as written
    returns: Term | None  # what it returns (None: falls off the end, returns None)
    generator: bool
    is_async: bool
    params: tuple[str, ...]
    # Each way out of a plain function: (what it returns as a test term, the branch tests
    # that hold on the way there); the falling-off end returns None.  Empty when every way
    # out returns a constant under no test that calls anything (it says nothing about
    # tracing), for generators, and past 8 returns.
    return_paths: tuple[tuple[Term, Guards], ...] = ()


@dataclass(frozen=True, slots=True)
class ClassSem:
    local_id: str
    name: str
    parent_id: str | None  # enclosing function or class
    bases: tuple[Term, ...]
    decorators: tuple[Term, ...]
    methods: tuple[str, ...]
    attributes: tuple[tuple[str, Term], ...]  # ``self.x = value`` in any method
    class_attributes: tuple[tuple[str, Term], ...]  # ``x = value`` in the class body


@dataclass(frozen=True, slots=True)
class CallSem:
    scope: str | None  # local id of the enclosing function or lambda; None: module code
    func: Term
    args: tuple[Term, ...]
    kwargs: tuple[tuple[str | None, Term], ...]
    withs: tuple[Term, ...]  # context managers around the call (inside its function)
    # Under ``if not self.built:``: runs on the first call only (a hand-made lazy build).
    once: bool = False
    # Branch tests around the call in its function that hold when it runs (test term, True:
    # the test is true there), for :mod:`.traced` (``if tf.executing_eagerly(): ...``).
    guards: Guards = ()


@dataclass(frozen=True, slots=True)
class SemanticFacts:
    # Module names bound by the block's module code and live at its end:
    # (name, value term, definitely bound: the earlier value cannot survive).
    exports: tuple[tuple[str, Term, bool], ...]
    # Every module-level binding of the block.
    bindings: tuple[tuple[str, Term], ...]
    # ``global x`` then ``x = ...`` in the block's functions: may happen at any time.
    # (name, value, local id of the writing function)
    global_writes: tuple[tuple[str, Term, str], ...]
    functions: tuple[FunctionSem, ...]
    classes: tuple[ClassSem, ...]
    calls: tuple[CallSem, ...]
    star_import: bool
    # Module code in execution order: ("bind", name, loop) and ("call", index in ``calls``,
    # loop), where ``loop`` numbers the outermost module-level loop around it (-1: none).
    timeline: tuple[tuple[str, str | int, int], ...] = ()
    # (name, local id of the writing function) of ``global_writes`` whose every write runs
    # only while the name is unset (``if X is None: X = ...``): created once, then left alone.
    lazy_globals: frozenset[tuple[str, str]] = frozenset()


EMPTY_SEMANTICS = SemanticFacts((), (), (), (), (), (), False)

# Names a block reads, by the top-level class whose lines hold them (see BlockSemantics).
Mentions = tuple[tuple[str, frozenset[str]], ...]


# A method of a class block as it reads when another member of the class is edited: its text
# (decorators to last line, indentation included) and the local ids of the functions, classes
# and lambdas in it, its own first (``Class.method``, ``#2`` for a second of that name: its
# class's id and what the numbering across the block gives it).  The text fixes the method's
# tree up to a shift of lines, which no fact holds.
MethodKey = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class MethodSem:
    """What one method of a class block contributes to the block's semantic facts, its header
    (decorators, defaults) aside.

    A method's body reads only its own names: its flow and terms never look outside the method
    but for its class's id (``self``), since Python does not let a method see the names of the
    class body.  Its header runs in the class body and reads the names other members bind
    (``@size.setter``, ``def f(self, k=scale)``): those terms are always worked out again.

    Terms are memoised, and a term that meets itself (a loop-carried ``total += x``) is cut
    where the walk met it again, so what is memoised there depends on which node was asked
    first.  A part is therefore kept only when no term in its method was cut short (see
    ``TermBuilder.cuts``): then every term the method's facts asked for depends on nothing
    being built at the time, and the detectors, asking later and in their own order, get what
    a fresh analysis gives.  A method worked out again asks in the order a fresh run does
    (:func:`_facts` keeps its phases, skipping the parts it takes).
    """

    function: FunctionSem  # the method itself, without its decorators
    nested: tuple[FunctionSem, ...]  # the functions and lambdas of its body, in source order
    classes: tuple[ClassSem, ...]  # the classes of its body, in source order
    calls: tuple[CallSem, ...]  # the calls of its body, in source order
    stores: tuple[tuple[tuple[str, Term], ...], ...]  # its ``self.x = ...`` by statement kind
    mentions: frozenset[str]  # the names its body reads


class BlockSemantics:
    """A block's flow, terms and facts (built once per block text)."""

    def __init__(self, index: NodeIndex, donor: BlockFlow | None = None) -> None:
        self.flow = BlockFlow(index, donor)
        self.terms = TermBuilder(self.flow)
        self._facts: SemanticFacts | None = None
        self._mentions: Mentions = ()
        # Branch tests as terms (None: not a test of where code runs), and each statement
        # list's early exits (``if test: return``) by position, shared by the calls below.
        self.test_terms: dict[ast.expr, Term | None] = {}
        self.early_exits: dict[int, list[tuple[int, Term]]] = {}

    @property
    def index(self) -> NodeIndex:
        return self.flow.index  # held weakly (see ``BlockFlow.index``)

    @property
    def facts(self) -> SemanticFacts:
        """Built on first use: detectors on a block being typed need the flow, not the facts."""
        if self._facts is None:
            self._facts, self._mentions = _facts(self)
        return self._facts

    def facts_with(self, plan: MethodPlan) -> SemanticFacts:
        """The facts, method by method: the plan's methods with a ``part`` give it, the others
        are worked out and leave theirs in the plan (unless the facts were made already)."""
        if self._facts is None:
            self._facts, self._mentions = _facts(self, plan)
            plan.applied = True
        return self._facts

    @property
    def mentions(self) -> Mentions:
        """Names read, grouped by the top-level class whose lines hold the read ("" elsewhere):
        whether a class is used anywhere but inside itself.  Made with the facts, but not part
        of them: a name typed in a function, read by nothing, changes no value the module model
        works out, and typing one letter at a time reads a new name on every keystroke."""
        if self._facts is None:
            self._facts, self._mentions = _facts(self)
        return self._mentions

    def local_id(self, node: ast.AST) -> str:
        return self.flow.local_ids.get(node, "")

    def scope_id_of(self, node: ast.AST) -> str | None:
        """Local id of the innermost function or lambda whose body holds ``node`` (None:
        module code or a class body)."""
        scope = self.flow.scope_of(node)
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        return scope.local_id if scope.kind == "function" else None


def _facts(sem: BlockSemantics, plan: MethodPlan | None = None) -> tuple[SemanticFacts, Mentions]:
    flow, terms, index = sem.flow, sem.terms, sem.index
    exports: list[tuple[str, Term, bool]] = []
    for name, (defs, maybe_old) in sorted(flow.exports.items()):
        exports.append((name, union([terms.binding(d) for d in defs]), not maybe_old))
    bindings: list[tuple[str, Term]] = []
    for name, nodes in flow.module.bindings.items():
        bindings.extend((name, terms.binding(n)) for n in nodes)
    bindings.sort(key=lambda item: item[0])
    global_writes = sorted(
        (
            (name, terms.binding(n), sem.scope_id_of(n) or "")
            for name, nodes in flow.global_writes.items()
            for n in nodes
        ),
        key=lambda item: (item[0], item[2]),
    )

    functions: list[FunctionSem] = []
    classes: list[ClassSem] = []
    ordered = sorted(flow.scopes.items(), key=lambda item: _position(item[0]))
    for member, run in stretches(ordered, plan, _scope_position):
        if member is not None and member.part is not None:
            functions.extend(member.part.nested)
            classes.extend(member.part.classes)
            continue
        for node, scope in run:
            if scope.kind == "function":
                found = _method(sem, node, scope, plan)
                functions.append(found)
                if member is not None:
                    member.nested.append(found)
            elif scope.kind == "class" and isinstance(node, ast.ClassDef):
                cls = _class(sem, node, scope, plan)
                classes.append(cls)
                if member is not None:
                    member.classes.append(cls)

    calls: list[CallSem] = []
    numbers: dict[ast.AST, int] = {}
    for owner, stretch in stretches(index.nodes(ast.Call), plan, _line_col):
        if owner is not None and owner.part is not None:
            # No number needed: the timeline only looks for calls in module-level code.
            calls.extend(owner.part.calls)
            continue
        for call in stretch:
            scope_id = sem.scope_id_of(call)
            if scope_id is None:
                numbers[call] = len(calls)  # module code (or a class body): on the timeline
            made = _call(sem, call, scope_id)
            calls.append(made)
            if owner is not None:
                owner.calls.append(made)
    facts = SemanticFacts(
        tuple(exports),
        tuple(bindings),
        tuple(global_writes),
        tuple(functions),
        tuple(classes),
        tuple(calls),
        flow.module.star_import,
        _timeline(index.tree.body, numbers, index.parents),
        _lazy_globals(sem, flow.global_writes),
    )
    return facts, _mentions(index.tree.body, flow.uses, index.nodes(ast.Name), plan)


def _call(sem: BlockSemantics, call: ast.Call, scope_id: str | None) -> CallSem:
    terms = sem.terms
    withs = _withs(sem, call)
    if scope_id is None or _arguments_matter(sem, call):
        args = tuple(terms.expr(a) for a in call.args)
        kwargs = tuple((kw.arg, terms.expr(kw.value)) for kw in call.keywords)
    else:
        args, kwargs = (), ()
    once = scope_id is not None and _before_built(sem, call)
    guards = branch_guards(sem, call) if scope_id is not None else ()
    return CallSem(scope_id, terms.expr(call.func), args, kwargs, withs, once, guards)


def _method(
    sem: BlockSemantics, node: ast.AST, scope: Scope, plan: MethodPlan | None
) -> FunctionSem:
    """A function's facts; a method the plan follows gives its body's from the earlier
    version when it has them, and only its decorators (read in the class body) are new."""
    member = plan.methods.get(node) if plan is not None else None
    if member is None:
        return _function(sem, node, scope)
    if member.part is not None:
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        decorators = tuple(sem.terms.expr(d) for d in node.decorator_list)
        kept = member.part.function
        return kept if kept.decorators == decorators else replace(kept, decorators=decorators)
    found = _function(sem, node, scope)
    member.function = replace(found, decorators=()) if found.decorators else found
    return found


def _lazy_globals(
    sem: BlockSemantics, writes: dict[str, list[ast.AST]]
) -> frozenset[tuple[str, str]]:
    lazy: dict[tuple[str, str], bool] = {}
    for name, nodes in writes.items():
        for node in nodes:
            key = (name, sem.scope_id_of(node) or "")
            lazy[key] = lazy.get(key, True) and _while_unset(sem, node, name)
    return frozenset(key for key, only_once in lazy.items() if only_once)


def _while_unset(sem: BlockSemantics, node: ast.AST, name: str) -> bool:
    """``node`` runs only while ``name`` is None or empty: under ``if name is None:`` or
    ``if not name:`` (alone or in an ``and``), or in the ``else`` of their opposites."""
    child = node
    for parent in sem.index.ancestors(node):
        if isinstance(parent, _FUNCTIONS):
            return False
        if isinstance(parent, ast.If):
            if child in parent.body and _tests(parent.test, name, unset=True):
                return True
            if child in parent.orelse and _tests(parent.test, name, unset=False):
                return True
        child = parent
    return False


def _tests(test: ast.expr, name: str, *, unset: bool) -> bool:
    """``test`` holds only when ``name`` is unset (``unset``) or only when it is set."""
    if isinstance(test, ast.BoolOp):
        # `a and b` holds only if each holds; `a or b` is false only if each is false.
        if isinstance(test.op, ast.And) == unset:
            return any(_tests(value, name, unset=unset) for value in test.values)
        return False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _tests(test.operand, name, unset=not unset)
    if isinstance(test, ast.Name):
        return test.id == name and not unset
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id == name
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return isinstance(test.ops[0], ast.Is) == unset and isinstance(
            test.ops[0], (ast.Is, ast.IsNot)
        )
    return False


def _mentions(
    body: list[ast.stmt],
    uses: Mapping[ast.Name, object],
    names: Sequence[ast.Name],
    plan: MethodPlan | None,
) -> Mentions:
    """``uses`` are the names read (``names``: every name of the block, in source order)."""
    spans = [
        (stmt.name, stmt.lineno, stmt.end_lineno or stmt.lineno)
        for stmt in body
        if isinstance(stmt, ast.ClassDef)
    ]
    grouped: dict[str, set[str]] = {}
    if plan is None:
        for use in uses:
            owner = next((name for name, start, end in spans if start <= use.lineno <= end), "")
            grouped.setdefault(owner, set()).add(use.id)
    else:
        for member, run in stretches(names, plan, _line_col):
            if member is not None and member.part is not None:
                if member.part.mentions:  # a method of the block's one class: in its lines
                    grouped.setdefault(plan.cls.name, set()).update(member.part.mentions)
                continue
            read = [name for name in run if name in uses]
            for use in read:
                owner = next((n for n, start, end in spans if start <= use.lineno <= end), "")
                grouped.setdefault(owner, set()).add(use.id)
            if member is not None:
                member.mentions = frozenset(use.id for use in read)
    return tuple((owner, frozenset(names)) for owner, names in sorted(grouped.items()))


_Event = tuple[str, str | int, int]


def _timeline(
    body: list[ast.stmt], numbers: dict[ast.AST, int], parents: dict[ast.AST, ast.AST]
) -> tuple[_Event, ...]:
    """Module-level bindings and calls in the order they run (functions and classes are not
    entered: their bodies run later)."""
    walk = _TimelineWalk(numbers, parents)
    walk.run(body, -1)
    return tuple(walk.events)


class _TimelineWalk:
    # A class, not nested functions: a recursive closure refers to itself through its cell,
    # and that cycle (holding the block's tree) would wait for the cyclic collector.
    def __init__(self, numbers: dict[ast.AST, int], parents: dict[ast.AST, ast.AST]) -> None:
        self.numbers = numbers
        self.events: list[_Event] = []
        self.loops = 0
        # The numbered calls and every node above them: a search for calls goes down these
        # only, instead of walking every subtree it is asked about.
        above: set[ast.AST] = set()
        for call in numbers:
            node: ast.AST | None = call
            while node is not None and node not in above:
                above.add(node)
                node = parents.get(node)
        self.above = above

    def calls_in(self, node: ast.AST | None, loop: int) -> None:
        above, numbers = self.above, self.numbers
        if node is None or node not in above:
            return
        found: list[ast.Call] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, ast.Call) and current in numbers:
                found.append(current)
            stack.extend(c for c in ast.iter_child_nodes(current) if c in above)
        found.sort(key=lambda c: (c.end_lineno or 0, c.end_col_offset or 0))  # inner first
        self.events.extend(("call", numbers[c], loop) for c in found)

    def binds(self, target: ast.AST, loop: int) -> None:
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.events.append(("bind", n.id, loop))
            elif isinstance(n, (ast.Subscript, ast.Attribute)):
                self.calls_in(n, loop)

    def run(self, stmts: list[ast.stmt], loop: int) -> None:
        calls_in, binds, run, events = self.calls_in, self.binds, self.run, self.events
        for stmt in stmts:
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                calls_in(stmt.value, loop)
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    binds(target, loop)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for deco in stmt.decorator_list:
                    calls_in(deco, loop)
                events.append(("bind", stmt.name, loop))
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for alias in stmt.names:
                    if alias.name != "*":
                        name = (alias.asname or alias.name).split(".", 1)[0]
                        events.append(("bind", name, loop))
            elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                inner = loop
                if loop < 0:
                    inner = self.loops
                    self.loops += 1
                if isinstance(stmt, ast.While):
                    calls_in(stmt.test, inner)
                else:
                    calls_in(stmt.iter, inner)
                    binds(stmt.target, inner)
                run(stmt.body, inner)
                run(stmt.orelse, inner)
            elif isinstance(stmt, ast.If):
                calls_in(stmt.test, loop)
                run(stmt.body, loop)
                run(stmt.orelse, loop)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    calls_in(item.context_expr, loop)
                    if item.optional_vars is not None:
                        binds(item.optional_vars, loop)
                run(stmt.body, loop)
            elif isinstance(stmt, _TRY):
                run(stmt.body, loop)  # type: ignore[attr-defined]
                for handler in stmt.handlers:  # type: ignore[attr-defined]
                    run(handler.body, loop)
                run(stmt.orelse, loop)  # type: ignore[attr-defined]
                run(stmt.finalbody, loop)  # type: ignore[attr-defined]
            elif isinstance(stmt, ast.Match):
                calls_in(stmt.subject, loop)
                for case in stmt.cases:
                    run(case.body, loop)
            else:
                for child in ast.iter_child_nodes(stmt):
                    calls_in(child, loop)


_TRY = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if isinstance(t, type))


# Methods whose arguments the module model reads (saves, loads, fit's callbacks, functions
# handed to tf.function, Dataset.map, compile, tf.py_function...).
_ARGUMENT_METHODS = frozenset(
    {
        "save",
        "save_model",
        "load_model",
        "model_from_json",
        "fit",
        "compile",
        "get_config",
        "to_json",
        "clone_model",
        "serialize_keras_object",
        "serialize",
        "ModelCheckpoint",
        "get_custom_objects",
        "function",
        "py_function",
        "numpy_function",
        "py_func",
        "run_functions_eagerly",
        "experimental_run_functions_eagerly",
        *("map", "filter", "flat_map", "interleave", "reduce", "scan"),
    }
)


def _arguments_matter(sem: BlockSemantics, call: ast.Call) -> bool:
    """Keep the arguments' terms of a call inside a function only where the module model reads
    them: calls of plain names (this module's functions), methods of local objects, the
    methods above, and calls given a lambda.  ``tf.reduce_sum(x)`` keeps its callee only."""
    func = call.func
    if isinstance(func, ast.Name):
        return True
    if not isinstance(func, ast.Attribute):
        return True
    if func.attr in _ARGUMENT_METHODS:
        return True
    if any(isinstance(a, ast.Lambda) for a in call.args) or any(
        isinstance(kw.value, ast.Lambda) for kw in call.keywords
    ):
        return True
    root: ast.AST = func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return True
    reach = sem.flow.uses.get(root)
    return reach is None or bool(reach.defs)  # a local object, not a module-level name


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _parent_id(sem: BlockSemantics, node: ast.AST, kinds: tuple[type, ...]) -> str | None:
    for parent in sem.index.ancestors(node):
        if isinstance(parent, kinds):
            return sem.flow.local_ids.get(parent)
    return None


def _function(sem: BlockSemantics, node: ast.AST, scope: Scope) -> FunctionSem:
    terms = sem.terms
    owner = sem.index.parent(node)
    class_id = (
        sem.flow.local_ids.get(owner)
        if isinstance(owner, ast.ClassDef) and not isinstance(node, ast.Lambda)
        else None
    )
    parent_id = _parent_id(sem, node, _FUNCTIONS)
    if isinstance(node, ast.Lambda):
        returns: Term | None = terms.expr(node.body)
        decorators: tuple[Term, ...] = ()
        name = "<lambda>"
    else:
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        values = [terms.expr(r.value) for r in scope.returns if r.value is not None]
        if any(r.value is None for r in scope.returns):
            values.append(Term("const", None))
        returns = union(values) if values else None
        decorators = tuple(terms.expr(d) for d in node.decorator_list)
        name = node.name
    args = node.args
    params = tuple(p.arg for p in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    paths = () if isinstance(node, ast.Lambda) or scope.is_generator else _return_paths(sem, node)
    return FunctionSem(
        sem.flow.local_ids.get(node, ""),
        name,
        class_id,
        parent_id,
        decorators,
        returns,
        scope.is_generator,
        isinstance(node, ast.AsyncFunctionDef),
        params,
        paths,
    )


def _class(
    sem: BlockSemantics, node: ast.ClassDef, scope: Scope, plan: MethodPlan | None = None
) -> ClassSem:
    terms = sem.terms
    local_id = sem.flow.local_ids.get(node, node.name)
    methods = tuple(
        s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
    )
    self_term = Term("self", local_id)
    attributes: list[tuple[str, Term]] = []
    index = sem.index
    followed = plan if plan is not None and plan.cls is node else None
    for kind, stores in enumerate(_attribute_stores(index)):
        for member, run in stretches(stores, followed, _line_col):
            if member is not None and member.part is not None:
                attributes.extend(member.part.stores[kind])
                continue
            found: list[tuple[str, Term]] = []
            for stmt in run:
                if index.enclosing_class(stmt) is not node:
                    continue
                if isinstance(stmt, ast.Assign):
                    for target in stmt.targets:
                        _self_targets(terms, target, stmt.value, self_term, found)
                elif isinstance(stmt, ast.AnnAssign):
                    if stmt.value is not None:
                        _self_targets(terms, stmt.target, stmt.value, self_term, found)
                elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Attribute):
                    _self_targets(terms, stmt.target, stmt, self_term, found)
            attributes.extend(found)
            if member is not None:
                member.stores[kind].extend(found)
    class_attributes: list[tuple[str, Term]] = []
    for name, nodes in scope.bindings.items():
        class_attributes.extend((name, terms.binding(n)) for n in nodes)
    return ClassSem(
        local_id,
        node.name,
        _parent_id(sem, node, (*_FUNCTIONS, ast.ClassDef)),
        tuple(terms.expr(b) for b in node.bases),
        tuple(terms.expr(d) for d in node.decorator_list),
        methods,
        tuple(sorted(attributes, key=lambda a: a[0])),
        tuple(sorted(class_attributes, key=lambda a: a[0])),
    )


_Store = ast.Assign | ast.AnnAssign | ast.AugAssign


def _attribute_stores(index: NodeIndex) -> tuple[list[_Store], ...]:
    """Assignments of the block with an attribute among their targets (``self.x = ...``), one
    list per statement kind (plain, annotated, augmented), each in source order."""
    found = index.memo.get("semantic.attribute_stores")
    if found is None:
        kinds: tuple[type[_Store], ...] = (ast.Assign, ast.AnnAssign, ast.AugAssign)
        found = tuple(
            [
                stmt
                for stmt in index.nodes(kind)
                if any(
                    isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                    for n in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])
                )
            ]
            for kind in kinds
        )
        index.memo["semantic.attribute_stores"] = found
    return found


def _self_targets(
    terms: TermBuilder,
    target: ast.expr,
    value: ast.AST,
    self_term: Term,
    out: list[tuple[str, Term]],
    position: tuple[int, ...] = (),
) -> None:
    """``self.x = value`` (also unpacked): the value's term is built only for such targets."""
    if isinstance(target, ast.Attribute):
        if terms.expr(target.value) == self_term:
            if isinstance(value, ast.AugAssign):
                term = Term(
                    "binop", type(value.op).__name__, terms.expr(target), terms.expr(value.value)
                )
            else:
                term = terms.expr(value)
            for i in position:
                term = Term("item", term, i)
            out.append((target.attr, term))
    elif isinstance(target, (ast.Tuple, ast.List)):
        for i, elt in enumerate(target.elts):
            _self_targets(terms, elt, value, self_term, out, (*position, i))


def _before_built(sem: BlockSemantics, call: ast.Call) -> bool:
    """``if not self.built: self.build(shape)``: the body runs until the layer is built."""
    child: ast.AST = call
    for parent in sem.index.ancestors(call):
        if isinstance(parent, _FUNCTIONS):
            return False
        if isinstance(parent, ast.If) and child in parent.body:
            test = parent.test
            if (
                isinstance(test, ast.UnaryOp)
                and isinstance(test.op, ast.Not)
                and isinstance(test.operand, ast.Attribute)
                and test.operand.attr == "built"
                and isinstance(test.operand.value, ast.Name)
            ):
                return True
        child = parent
    return False


def _withs(sem: BlockSemantics, call: ast.Call) -> tuple[Term, ...]:
    found: list[Term] = []
    for parent in sem.index.ancestors(call):
        if isinstance(parent, _FUNCTIONS):
            break
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            found.extend(sem.terms.expr(item.context_expr) for item in parent.items)
    return tuple(found)


# -- branch tests (what :mod:`.traced` reads) -----------------------------------------------
_EXITS = (ast.Return, ast.Raise)
_MAX_RETURNS = 8


def _test_term(sem: BlockSemantics, test: ast.expr) -> Term | None:
    """A branch test as a term that keeps ``and``/``or``/``not`` and ``x is None``; None when
    the test calls nothing and compares nothing with None (it cannot ask "am I traced?")."""
    if test in sem.test_terms:
        return sem.test_terms[test]
    found = sem.test_terms[test] = _new_test_term(sem, test)
    return found


def _new_test_term(sem: BlockSemantics, test: ast.expr) -> Term | None:
    if not any(
        isinstance(n, ast.Call)
        or (
            isinstance(n, ast.Compare)
            and len(n.ops) == 1
            and isinstance(n.ops[0], (ast.Is, ast.IsNot))
            and isinstance(n.comparators[0], ast.Constant)
            and n.comparators[0].value is None
        )
        for n in ast.walk(test)
    ):
        return None
    return _test(sem, test)


def _test(sem: BlockSemantics, test: ast.expr) -> Term:
    if isinstance(test, ast.BoolOp):
        tag = "and" if isinstance(test.op, ast.And) else "or"
        return Term(tag, tuple(_test(sem, value) for value in test.values))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return Term("not", _test(sem, test.operand))
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.IsNot))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return Term("isnone", sem.terms.expr(test.left), isinstance(test.ops[0], ast.Is))
    return sem.terms.expr(test)


def branch_guards(sem: BlockSemantics, node: ast.AST) -> tuple[tuple[Term, bool], ...]:
    """The tests that hold when ``node`` runs, inside its function: the ``if``s around it
    (True in the body, False in ``else``) and earlier ``if test: return`` (False after)."""
    found: list[tuple[Term, bool]] = []
    child: ast.AST = node
    for parent in sem.index.ancestors(node):
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            term = _test_term(sem, parent.test)
            if term is not None:
                in_body = (
                    child in parent.body if isinstance(parent, ast.If) else child is parent.body
                )
                found.append((term, in_body))
        if isinstance(child, ast.stmt):
            for field in ("body", "orelse", "finalbody"):
                stmts = getattr(parent, field, None)
                if isinstance(stmts, list) and child in stmts:
                    at = stmts.index(child)
                    found.extend((term, False) for i, term in _early_exits(sem, stmts) if i < at)
                    break
        if isinstance(parent, (*_FUNCTIONS, ast.ClassDef)):
            break
        child = parent
    return tuple(found)


def _early_exits(sem: BlockSemantics, stmts: list[ast.stmt]) -> list[tuple[int, Term]]:
    found = sem.early_exits.get(id(stmts))
    if found is None:
        found = sem.early_exits[id(stmts)] = [
            (i, term)
            for i, stmt in enumerate(stmts)
            if isinstance(stmt, ast.If)
            and not stmt.orelse
            and isinstance(stmt.body[-1], _EXITS)
            and (term := _test_term(sem, stmt.test)) is not None
        ]
    return found


def _return_paths(
    sem: BlockSemantics, node: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[tuple[Term, tuple[tuple[Term, bool], ...]], ...]:
    returns = sem.flow.scopes[node].returns if node in sem.flow.scopes else []
    if not returns or len(returns) > _MAX_RETURNS:
        return ()
    paths: list[tuple[Term, tuple[tuple[Term, bool], ...]]] = []
    for ret in returns:
        value = Term("const", None) if ret.value is None else _test(sem, ret.value)
        paths.append((value, branch_guards(sem, ret)))
    if not isinstance(node.body[-1], _EXITS):
        # Falling off the end returns None (after every early exit above it).
        end = node.body[-1]
        guards = branch_guards(sem, end)
        if (
            isinstance(end, ast.If)
            and not end.orelse
            and isinstance(end.body[-1], _EXITS)
            and (term := _test_term(sem, end.test)) is not None
        ):
            guards = (*guards, (term, False))
        paths.append((Term("const", None), guards))
    if all(not guards and value.tag == "const" for value, guards in paths):
        return ()  # constants under no test that calls anything: not a test of where it runs
    return tuple(paths)


# -- methods of a class block, reused across its versions -------------------------------------
Position = tuple[int, int]
_T = TypeVar("_T")
_line_col = operator.attrgetter("lineno", "col_offset")


def _scope_position(item: tuple[ast.AST, Scope]) -> Position:
    return _position(item[0])


class Method:
    """A method of the class block: where it lies, and either what an earlier version of the
    block gave for it (``part``) or what this version works out for it, to keep."""

    __slots__ = (
        "body",
        "call_count",
        "calls",
        "classes",
        "end",
        "function",
        "head",
        "key",
        "mentions",
        "nested",
        "part",
        "stores",
    )

    def __init__(
        self, key: MethodKey, head: Position, body: Position, end: Position, call_count: int
    ) -> None:
        self.key = key
        self.head = head  # where its first decorator's line begins
        self.body = body  # where its body begins: what lies before runs in the class body
        self.end = end
        self.call_count = call_count  # calls in its body
        self.part: MethodSem | None = None
        self.function: FunctionSem | None = None
        self.nested: list[FunctionSem] = []
        self.classes: list[ClassSem] = []
        self.calls: list[CallSem] = []
        self.stores: tuple[list[tuple[str, Term]], ...] = ([], [], [])
        self.mentions: frozenset[str] = frozenset()

    def take(self, part: MethodSem) -> bool:
        """Reuse ``part``, kept under this method's key.  (One key, one tree: the count of
        calls is a guard against a wrong cut, not a case.)"""
        if len(part.calls) != self.call_count:
            return False
        self.part = part
        return True

    def made(self) -> MethodSem | None:
        if self.part is not None:
            return self.part
        if self.function is None:
            return None
        return MethodSem(
            self.function,
            tuple(self.nested),
            tuple(self.classes),
            tuple(self.calls),
            tuple(tuple(kind) for kind in self.stores),
            self.mentions,
        )


class MethodPlan:
    """The methods of a class block followed one by one (see :class:`MethodSem`)."""

    def __init__(self, cls: ast.ClassDef, members: list[Method], nodes: list[ast.AST]) -> None:
        self.cls = cls
        self.members = members
        self.methods = dict(zip(nodes, members, strict=True))
        self.applied = False  # the facts were made with this plan (see ``facts_with``)

    def kept(self, cuts: Sequence[ast.AST]) -> list[MethodSem | None]:
        """Each method's part, to keep for the next version; None where a term in the method
        was cut short (``cuts``: see ``TermBuilder.cuts``) or nothing was made."""
        spoiled: set[int] = set()
        heads = [member.head for member in self.members]
        for node in cuts:
            line = getattr(node, "lineno", None)
            if line is None:
                return [None] * len(self.members)
            at = (line, getattr(node, "col_offset", 0))
            k = bisect_right(heads, at) - 1
            if k >= 0 and at <= self.members[k].end:
                spoiled.add(k)
        return [
            member.made() if k not in spoiled else None for k, member in enumerate(self.members)
        ]


def plan_methods(sem: BlockSemantics, text: str) -> MethodPlan | None:
    """The methods of a class block to follow one by one, ``text`` being what the block's tree
    was parsed from.  Only a block that is one class has any: the methods the flow walked (a
    method after a ``raise`` in the class body is not, and its calls then belong to no
    function)."""
    index = sem.index
    body = index.tree.body
    if len(body) != 1 or not isinstance(body[0], ast.ClassDef):
        return None
    cls = body[0]
    flow = sem.flow
    scoped = list(flow.local_ids.items())  # in source order (see ``BlockFlow._assign_ids``)
    positions = [_position(node) for node, _ in scoped]
    starts = _line_starts(text)
    calls = index.nodes(ast.Call)
    members: list[Method] = []
    nodes: list[ast.AST] = []
    for stmt in cls.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt not in flow.scopes:
            continue
        first = stmt.decorator_list[0].lineno if stmt.decorator_list else stmt.lineno
        head, start = (first, 0), _first_position(stmt.body[0])
        end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
        low = bisect_left(positions, head)
        ids = tuple(local for _, local in scoped[low : bisect_right(positions, end, lo=low)])
        key = (text[starts[first - 1] : starts[end[0]]], ids)
        count = bisect_right(calls, end, key=_line_col) - bisect_left(calls, start, key=_line_col)
        members.append(Method(key, head, start, end, count))
        nodes.append(stmt)
    return MethodPlan(cls, members, nodes)


def _first_position(stmt: ast.stmt) -> Position:
    """Where a statement's first node lies: a decorated def or class starts at its first
    decorator (its own position is its ``def`` line), which runs where the def is."""
    decorators = getattr(stmt, "decorator_list", None)
    return _position(decorators[0]) if decorators else _position(stmt)


def _line_starts(text: str) -> list[int]:
    """Offsets of each line's start, then the text's end: line ``n`` is
    ``text[starts[n - 1]:starts[n]]``."""
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    starts.append(len(text))
    return starts


def stretches(
    items: Sequence[_T],
    plan: MethodPlan | None,
    position: Callable[[_T], Position],
    *,
    whole: bool = False,
) -> Iterator[tuple[Method | None, Sequence[_T]]]:
    """``items`` (in source order) cut into the stretches inside each planned method's body
    (``whole``: the whole method, header included), with the method, and those outside any,
    with None."""
    if plan is None or not plan.members:
        yield None, items
        return
    done = 0
    for member in plan.members:
        low = bisect_left(items, member.head if whole else member.body, lo=done, key=position)
        high = bisect_right(items, member.end, lo=low, key=position)
        if low > done:
            yield None, items[done:low]
        yield member, items[low:high]
        done = high
    if done < len(items):
        yield None, items[done:]
