"""Tests that ask "am I being traced?", and the code they keep eager.

``tf.executing_eagerly()`` is False while a tf.function or a ``Dataset.map`` function is traced,
so ``if tf.executing_eagerly(): ...`` never runs inside the graph; ``tf.inside_function()`` is
True there, so its ``else`` runs eagerly.  Libraries wrap these tests in helpers
(``def in_tf_function(): return not tf.executing_eagerly()``) and methods
(``if in_tf_function(): return True`` ... ``return False``), and branch on them to keep a Python
path for eager calls (keras-hub's preprocessing layers call their pure-Python path only when
their ``_use_tf_workflow()`` says they are not traced).

A test has up to two facts: :data:`EAGER_IF_TRUE` (when it holds, the code runs eagerly) and
:data:`EAGER_IF_FALSE` (when it fails, the code runs eagerly).  ``not`` swaps them, ``and``/``or``
combine them, a call of a function of this module or of the workspace (read through the
workspace import graph: :meth:`ImportedNames.trace_test`) has the facts every way out of it
has (:attr:`FunctionSem.return_paths`).  ``tf is None`` (no TensorFlow: nothing is traced) counts
as an eager test too.  Anything else has no fact: the code under it may be traced.
"""

from __future__ import annotations

from functools import partial

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.block import Guards
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

EAGER_IF_TRUE = "eager_if_true"
EAGER_IF_FALSE = "eager_if_false"
Facts = frozenset[str]
NO_FACTS: Facts = frozenset()
_SWAP = {EAGER_IF_TRUE: EAGER_IF_FALSE, EAGER_IF_FALSE: EAGER_IF_TRUE}
_LIBRARY_TESTS: dict[str, Facts] = {
    "tensorflow.executing_eagerly": frozenset({EAGER_IF_TRUE}),
    "tensorflow.compat.v1.executing_eagerly": frozenset({EAGER_IF_TRUE}),
    "tensorflow.inside_function": frozenset({EAGER_IF_FALSE}),
}
_MAX_DEPTH = 6  # helpers calling helpers


def runs_eagerly(model: ModuleModel, block: int, guards: Guards) -> bool:
    """One of ``guards`` (branch tests that hold where the code runs) says it runs eagerly."""
    for term, holds in guards:
        facts = test_facts(model, block, term)
        if (EAGER_IF_TRUE if holds else EAGER_IF_FALSE) in facts:
            return True
    return False


def test_facts(model: ModuleModel, block: int, term: Term, depth: int = 0) -> Facts:
    tag, args = term.tag, term.args
    if depth > _MAX_DEPTH:
        return NO_FACTS
    if tag == "not":
        return frozenset(_SWAP[f] for f in test_facts(model, block, args[0], depth))
    if tag in ("and", "or"):
        parts = [test_facts(model, block, t, depth) for t in args[0]]
        # ``a and b`` holds only when both do (one eager fact is enough); it fails when one
        # fails (every operand must say so).  ``or`` the other way round.
        some, every = (
            (EAGER_IF_TRUE, EAGER_IF_FALSE) if tag == "and" else (EAGER_IF_FALSE, EAGER_IF_TRUE)
        )
        out = set()
        if any(some in p for p in parts):
            out.add(some)
        if parts and all(every in p for p in parts):
            out.add(every)
        return frozenset(out)
    if tag == "isnone":
        values = model.value(args[0], block)
        if v.any_of(values, lambda x: x.kind in (v.NAME, v.MODULE) and x.ref == "tensorflow"):
            return frozenset({EAGER_IF_TRUE if args[1] else EAGER_IF_FALSE})
        return NO_FACTS
    if tag == "call":
        return _call_facts(model, block, args[0], depth)
    return NO_FACTS


def _call_facts(model: ModuleModel, block: int, func: Term, depth: int) -> Facts:
    values = model.value(func, block)
    if func.tag == "attr" and v.any_of(model.value(func.args[0], block), _is_none):
        # ``tf.executing_eagerly`` where ``tf`` may be None (an optional import): the
        # attribute of None is no answer, the module's is.
        values = frozenset(x for x in values if x is not v.UNKNOWN) or values
    known = _LIBRARY_TESTS.get(qualname_of(values) or "")
    if known is not None:
        return known
    if func.tag == "attr" and func.args[0].tag == "self" and v.is_unknown(values):
        # ``self.helper()`` defined by a base class of another workspace file.
        return _inherited(model, block, func.args[0].args[0], func.args[1])
    found: list[Facts] = []
    for value in values:
        if value.kind == v.FUNCTION and value.is_local:
            found.append(function_facts(model, value.local_id, depth + 1))
        elif value.kind in (v.FUNCTION, v.NAME) and value.ref and model.imported is not None:
            found.append(model.imported.trace_test(value.ref) or NO_FACTS)
        else:
            found.append(NO_FACTS)
    if not found:
        return NO_FACTS
    return frozenset.intersection(*found)


def _is_none(value: v.Value) -> bool:
    return value.kind == v.NONE


def _inherited(model: ModuleModel, block: int, class_id: str, method: str) -> Facts:
    imported = model.imported
    if imported is None:
        return NO_FACTS
    for gid in model.mro(model.gid(block, class_id)):
        entry = model.classes.get(gid)
        if entry is None:
            continue
        for base in entry.facts.bases:
            for value in model.value(base, entry.block):
                if value.kind in (v.NAME, v.CLASS) and value.ref and not value.is_local:
                    found = imported.trace_test(f"{value.ref}.{method}")
                    if found:
                        return found
    return NO_FACTS


def function_facts(model: ModuleModel, gid: str, depth: int = 0) -> Facts:
    """The facts of calling a function of this module (see the module docstring)."""
    entry = model.functions.get(gid)
    if entry is None or not entry.facts.return_paths:
        return NO_FACTS
    facts: Facts = model.evaluator._memoized(
        ("traced", gid), partial(_function_facts, model, gid, depth), NO_FACTS
    )
    return facts


def _function_facts(model: ModuleModel, gid: str, depth: int) -> Facts:
    entry = model.functions[gid]
    block = entry.block
    out = set()
    for fact in (EAGER_IF_TRUE, EAGER_IF_FALSE):
        if all(
            _path_gives(model, block, value, guards, fact, depth)
            for value, guards in entry.facts.return_paths
        ):
            out.add(fact)
    return frozenset(out)


def _path_gives(
    model: ModuleModel, block: int, value: Term, guards: Guards, fact: str, depth: int
) -> bool:
    """This way out keeps ``fact`` true of the function's answer: it is only taken eagerly,
    or it returns a constant that cannot break the fact, or a test that has the fact."""
    for term, holds in guards:
        if (EAGER_IF_TRUE if holds else EAGER_IF_FALSE) in test_facts(
            model, block, term, depth + 1
        ):
            return True
    if value.tag == "const":
        # A falsy answer never says "eager" under EAGER_IF_TRUE; a truthy one never under
        # EAGER_IF_FALSE.
        return bool(value.args[0]) != (fact == EAGER_IF_TRUE)
    return fact in test_facts(model, block, value, depth + 1)
