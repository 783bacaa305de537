"""What one block contributes to the module summary.

Facts are computed from a block's own text only (no other block is consulted), so they can be
cached by content and reused when other blocks change.  Names stay unresolved dotted strings
here; the semantic part (:mod:`tflsp.analysis.semantic.block`) keeps terms that the module model
evaluates once every block is known.  The semantic facts hold no line numbers: an edit that only
moves lines leaves the module model, and every other block's cached findings, unchanged.

A class is one block, however long.  While one of its methods is typed in, each version's facts
keep what every method contributed (:class:`MethodFacts`, values only), and the next version
takes over those of the methods the keystroke left alone instead of working them out again:
the core and semantic facts, and the families' facts registered ``by_method``.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from tflsp.analysis.index import NodeIndex
from tflsp.analysis.method_parts import MethodBody, Piece, Pieces, Stretches
from tflsp.analysis.names import dotted, import_bindings
from tflsp.analysis.registry import ByMethod, ModuleFact
from tflsp.analysis.semantic.block import (
    EMPTY_SEMANTICS,
    BlockSemantics,
    Mentions,
    Method,
    MethodKey,
    MethodPlan,
    MethodSem,
    SemanticFacts,
    plan_methods,
    stretches,
)
from tflsp.analysis.semantic.graph import DATASET_FUNCTION_METHODS, KERAS_GRAPH_METHODS

__all__ = [
    "DATASET_FUNCTION_METHODS",
    "EMPTY_FACTS",
    "KERAS_GRAPH_METHODS",
    "BlockFacts",
    "ClassFacts",
    "FunctionFacts",
    "extract_facts",
    "semantics_of",
]


@dataclass(frozen=True, slots=True)
class FunctionFacts:
    id: str
    name: str
    class_id: str | None  # the class when this is a method
    parent_id: str | None  # the enclosing function when nested
    calls: frozenset[str]  # "helper", "self.step", "cls.make"
    line: int  # for the language server's code lenses (not read by the analysis)


@dataclass(frozen=True, slots=True)
class ClassFacts:
    id: str
    name: str
    bases: tuple[str, ...]
    decorators: tuple[str, ...]
    methods: frozenset[str]
    line: int  # for the language server's code lenses (not read by the analysis)


@dataclass(frozen=True, slots=True)
class BlockFacts:
    imports: tuple[tuple[str, str], ...]
    functions: tuple[FunctionFacts, ...]
    classes: tuple[ClassFacts, ...]
    called: frozenset[str]  # dotted callees, and ".method" for method calls on any receiver
    # Facts registered by detector families (``registry.module_fact``): (name, value) pairs.
    extra: tuple[tuple[str, object], ...] = ()
    # What the block tells the semantic model (bindings, functions, classes, calls).
    semantic: SemanticFacts = EMPTY_SEMANTICS
    # The names it reads, by class (see BlockSemantics.mentions): outside the semantic facts,
    # so that a name being typed does not make the module model change.
    mentions: Mentions = ()
    # What each method of a class block contributed, for the block's next version (see
    # :class:`MethodFacts`): only made for a block being edited.  Not a fact: never compared.
    members: Mapping[MethodKey, MethodFacts] | None = field(default=None, compare=False, repr=False)


EMPTY_FACTS = BlockFacts((), (), (), frozenset())


@dataclass(frozen=True, slots=True)
class MethodFacts:
    """What one method of a class block contributed to the block's facts, kept under its key
    (see :class:`~tflsp.analysis.semantic.block.MethodSem` for why a method's key covers it).
    The core part is syntax within the method, header included; the families' parts are
    what :mod:`tflsp.analysis.method_parts` lets them read."""

    semantic: MethodSem
    functions: tuple[FunctionFacts, ...]  # the method and its defs, lines counted from its first
    called: frozenset[str]  # what its calls call (see ``BlockFacts.called``)
    # The families' facts made method by method: fact name -> the method's part.
    extra: Mapping[str, Hashable] = field(default_factory=dict)


def semantics_of(index: NodeIndex) -> BlockSemantics:
    """The block's flow, terms and semantic facts, built once per block (cached on its index)."""
    found = index.memo.get("semantics")
    if found is None:
        # A tree grafted from the block's last version walks only the methods it changed.
        donor = index.memo.pop(FLOW_DONOR, None)
        found = index.memo["semantics"] = BlockSemantics(index, donor)
    return found


# The memo key under which a grafted block's index holds its last version's flow until its own
# is built (see ``tflsp.analysis.graft``).
FLOW_DONOR = "flow donor"


def decorator_text(node: ast.expr) -> str | None:
    return dotted(node.func if isinstance(node, ast.Call) else node)


def _local_calls(index: NodeIndex, calls: Iterable[ast.Call]) -> dict[ast.AST, set[str]]:
    """For every function: the local-looking callees among ``calls`` inside it (nested
    functions included)."""
    found: dict[ast.AST, set[str]] = {}
    function_types = (ast.FunctionDef, ast.AsyncFunctionDef)
    for call in calls:
        text = dotted(call.func)
        if text is None or not (text.count(".") == 0 or text.startswith(("self.", "cls."))):
            continue
        for scope in index.ancestors(call):
            if isinstance(scope, function_types):
                found.setdefault(scope, set()).add(text)
    return found


def _called(calls: Iterable[ast.Call]) -> set[str]:
    called: set[str] = set()
    for call in calls:
        func = call.func
        text = dotted(func)
        if text is not None:
            called.add(text)
        if isinstance(func, ast.Attribute):
            called.add("." + func.attr)
    return called


def _function_facts(
    index: NodeIndex, fn: ast.FunctionDef | ast.AsyncFunctionDef, calls_in: dict[ast.AST, set[str]]
) -> FunctionFacts:
    parent_scope = index.enclosing_scope(fn)
    class_id = index.scope_id(parent_scope) if isinstance(parent_scope, ast.ClassDef) else None
    parent_fn = index.enclosing_function(fn)
    parent_id = (
        index.scope_id(parent_fn)
        if isinstance(parent_fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        else None
    )
    calls = frozenset(calls_in.get(fn, ()))
    return FunctionFacts(index.scope_id(fn), fn.name, class_id, parent_id, calls, fn.lineno)


def _moved(facts: FunctionFacts, lines: int) -> FunctionFacts:
    return FunctionFacts(
        facts.id, facts.name, facts.class_id, facts.parent_id, facts.calls, facts.line + lines
    )


_line_col = operator.attrgetter("lineno", "col_offset")


def _position(node: ast.AST) -> tuple[int, int]:
    return (node.lineno, node.col_offset)  # type: ignore[attr-defined]


def extract_facts(
    index: NodeIndex,
    module_facts: Sequence[ModuleFact] = (),
    before: BlockFacts | None = None,
    source: str | None = None,
) -> BlockFacts:
    """The block's facts; ``module_facts`` are the detector families' own (the engine passes
    the registered ones).  ``before``, the facts of an earlier version of the block, and
    ``source``, the text the block's tree was parsed from, let the methods of a class that the
    edit left alone give what they gave then (the new facts keep theirs for the next version).
    """
    tree = index.tree
    plan: MethodPlan | None = None
    if before is not None and source is not None:
        plan = plan_methods(semantics_of(index), source)
    # The methods an earlier version kept facts for, by key.
    carried: dict[Method, MethodFacts] = {}
    if plan is not None and before is not None and before.members:
        for method in plan.members:
            found = before.members.get(method.key)
            if found is not None and method.take(found.semantic):
                carried[method] = found

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

    # A call belongs to every function around it, and those of a method are all in it.
    calls = index.nodes(ast.Call)
    fresh_calls: list[ast.Call] = []
    called: set[str] = set()
    own_called: dict[Method, frozenset[str]] = {}
    for member, run in stretches(calls, plan, _line_col, whole=True):
        kept = carried.get(member) if member is not None else None
        if kept is not None:
            called |= kept.called
            continue
        fresh_calls.extend(run)
        here = _called(run)
        called |= here
        if member is not None:
            own_called[member] = frozenset(here)
    calls_in = _local_calls(index, fresh_calls)
    functions: list[FunctionFacts] = []
    own_functions: dict[Method, list[FunctionFacts]] = {}
    for member, defs in stretches(index.functions(), plan, _position, whole=True):
        kept = carried.get(member) if member is not None else None
        if kept is not None:
            assert member is not None
            functions.extend(_moved(f, member.head[0]) for f in kept.functions)
            continue
        for fn in defs:
            made = _function_facts(index, fn, calls_in)
            functions.append(made)
            if member is not None:
                own_functions.setdefault(member, []).append(_moved(made, -member.head[0]))

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

    # The family facts first: what they ask of the block's terms comes before what the
    # semantic facts ask, as it always has (see ``TermBuilder.cuts`` on why order matters).
    by_method = _MethodByMethod(index, plan, carried) if plan is not None and plan.members else None
    extra = tuple(
        (
            fact.name,
            fact.extract(index)
            if by_method is None or fact.by_method is None
            else by_method.value(fact.name, fact.by_method),
        )
        for fact in module_facts
    )
    semantics = semantics_of(index)
    semantic = semantics.facts if plan is None else semantics.facts_with(plan)
    return BlockFacts(
        imports=tuple(imports),
        functions=tuple(functions),
        classes=tuple(classes),
        called=frozenset(called),
        extra=extra,
        semantic=semantic,
        mentions=semantics.mentions,
        members=_kept(
            plan,
            semantics,
            carried,
            own_functions,
            own_called,
            by_method.made if by_method is not None else {},
        ),
    )


class _MethodByMethod:
    """The families' facts of a class block made method by method (see ``ByMethod``): the
    methods an earlier version kept facts for give their parts, the others are worked out
    and left in ``made`` for the next version."""

    def __init__(
        self, index: NodeIndex, plan: MethodPlan, carried: dict[Method, MethodFacts]
    ) -> None:
        self.index = index
        self.plan = plan
        self.carried = carried
        self.made: dict[Method, dict[str, Hashable]] = {}
        self._stretches: dict[bool, Stretches] = {}  # by whether the header is in

    def value(self, name: str, split: ByMethod) -> Hashable:
        stretches = self._stretches.get(split.header)
        if stretches is None:
            members = self.plan.members
            stretches = self._stretches[split.header] = Stretches(
                [(m.head if split.header else m.body, m.end) for m in members],
                [m.head[0] for m in members],
            )
        places: list[Piece[Hashable] | None] = []
        for k, (node, member) in enumerate(self.plan.methods.items()):
            assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            kept = self.carried.get(member)
            part = kept.extra.get(name, _UNMADE) if kept is not None else _UNMADE
            if part is _UNMADE:
                part = split.part(MethodBody(self.index, node, stretches, k))
                self.made.setdefault(member, {})[name] = part
            # None: the method is left to ``whole`` with the class body.
            places.append(Piece(node, member.head[0], part) if part is not None else None)
        return split.whole(self.index, Pieces(stretches, places))


_UNMADE = object()  # no part kept for the method: make it


def _kept(
    plan: MethodPlan | None,
    semantics: BlockSemantics,
    carried: dict[Method, MethodFacts],
    functions: dict[Method, list[FunctionFacts]],
    called: dict[Method, frozenset[str]],
    extra: dict[Method, dict[str, Hashable]],
) -> dict[MethodKey, MethodFacts] | None:
    """What each method contributed, by key, for the block's next version."""
    if plan is None or not plan.applied:
        return None
    out: dict[MethodKey, MethodFacts] = {}
    for member, part in zip(plan.members, plan.kept(semantics.terms.cuts), strict=True):
        if part is None:
            continue
        kept = carried.get(member)
        if kept is not None and kept.semantic is part:
            made = extra.get(member)
            # Parts made now join the kept ones (facts the last version had none for).
            out[member.key] = kept if not made else replace(kept, extra={**kept.extra, **made})
        else:
            out[member.key] = MethodFacts(
                part,
                tuple(functions.get(member, ())),
                called.get(member, frozenset()),
                extra.get(member, {}),
            )
    return out
