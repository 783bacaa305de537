"""What one block contributes to the module summary.

Facts are computed from a block's own text only (no other block is consulted), so they can be
cached by content and reused when other blocks change.  Names stay unresolved dotted strings
here; the semantic part (:mod:`tflsp.analysis.semantic.block`) keeps terms that the module model
evaluates once every block is known.  The semantic facts hold no line numbers: an edit that only
moves lines leaves the module model, and every other block's cached findings, unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted, import_bindings
from tflsp.analysis.registry import ModuleFact
from tflsp.analysis.semantic.block import EMPTY_SEMANTICS, BlockSemantics, SemanticFacts
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


EMPTY_FACTS = BlockFacts((), (), (), frozenset())


def semantics_of(index: NodeIndex) -> BlockSemantics:
    """The block's flow, terms and semantic facts, built once per block (cached on its index)."""
    found = index.memo.get("semantics")
    if found is None:
        found = index.memo["semantics"] = BlockSemantics(index)
    return found


def decorator_text(node: ast.expr) -> str | None:
    return dotted(node.func if isinstance(node, ast.Call) else node)


def _local_calls(index: NodeIndex) -> dict[ast.AST, set[str]]:
    """For every function: the local-looking callees inside it (nested functions included)."""
    calls: dict[ast.AST, set[str]] = {}
    function_types = (ast.FunctionDef, ast.AsyncFunctionDef)
    for call in index.nodes(ast.Call):
        text = dotted(call.func)
        if text is None or not (text.count(".") == 0 or text.startswith(("self.", "cls."))):
            continue
        for scope in index.ancestors(call):
            if isinstance(scope, function_types):
                calls.setdefault(scope, set()).add(text)
    return calls


def extract_facts(index: NodeIndex, module_facts: Sequence[ModuleFact] = ()) -> BlockFacts:
    """The block's facts; ``module_facts`` are the detector families' own (the engine passes
    the registered ones)."""
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

    calls_in = _local_calls(index)
    functions: list[FunctionFacts] = []
    for fn in index.functions():
        parent_scope = index.enclosing_scope(fn)
        class_id = index.scope_id(parent_scope) if isinstance(parent_scope, ast.ClassDef) else None
        parent_fn = index.enclosing_function(fn)
        parent_id = (
            index.scope_id(parent_fn)
            if isinstance(parent_fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            else None
        )
        calls = frozenset(calls_in.get(fn, ()))
        functions.append(
            FunctionFacts(index.scope_id(fn), fn.name, class_id, parent_id, calls, fn.lineno)
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

    called: set[str] = set()
    for call in index.nodes(ast.Call):
        func = call.func
        text = dotted(func)
        if text is not None:
            called.add(text)
        if isinstance(func, ast.Attribute):
            called.add("." + func.attr)

    return BlockFacts(
        imports=tuple(imports),
        functions=tuple(functions),
        classes=tuple(classes),
        called=frozenset(called),
        extra=tuple((fact.name, fact.extract(index)) for fact in module_facts),
        semantic=semantics_of(index).facts,
    )
