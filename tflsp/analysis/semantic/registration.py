"""Decorators of the user's own that register a class for Keras deserialisation.

A library often wraps ``register_keras_serializable`` in its export decorator (keras-hub's
``keras_hub_export`` registers every class it exports, through a helper its ``__call__``
calls).  A top-level function or class of a module *registers* when code that runs once it is
applied calls ``register_keras_serializable``: for a function, its body and the functions
nested in it (a decorator factory returns one); for a class, its methods; following the
module's own call graph (``__call__`` -> a helper -> the register call).
"""

from __future__ import annotations

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.graph import GraphMap
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.saving import REGISTER
from tflsp.analysis.semantic.terms import Term

_REGISTER_NAME = REGISTER.rpartition(".")[2]


def _spelled_register(func: Term) -> bool:
    """Cheap test before evaluating: the call's last name is ``register_keras_serializable``."""
    if func.tag == "attr":
        return func.args[1] == _REGISTER_NAME
    if func.tag in ("entry", "global", "import"):
        return str(func.args[0]).rpartition(".")[2] == _REGISTER_NAME
    return False


def _inside(model: ModuleModel, function: str, owner: str) -> bool:
    """``function`` is ``owner``, or a method or nested function of it (at any depth)."""
    current = model.functions.get(function)
    while current is not None:
        if current.gid == owner:
            return True
        facts = current.facts
        parent = facts.parent_id or facts.class_id
        if parent is None:
            return False
        parent_gid = model.gid(current.block, parent)
        if parent_gid == owner:
            return True
        current = model.functions.get(parent_gid)
    return False


def registering_names(model: ModuleModel, graph: GraphMap) -> frozenset[str]:
    """Module names every value of which is a local function or class that registers."""
    direct: set[str] = set()
    for block, facts in enumerate(model.blocks):
        for call in facts.calls:
            if call.scope is None or not _spelled_register(call.func):
                continue
            if qualname_of(model.value(call.func, block)) == REGISTER:
                direct.add(model.gid(block, call.scope))
    if not direct:
        return frozenset()
    registers: dict[str, bool] = {}

    def reaches(gid: str) -> bool:
        found = registers.get(gid)
        if found is None:
            starts = [f for f in model.functions if _inside(model, f, gid)]
            seen = set(starts)
            queue = list(starts)
            found = False
            while queue and not found:
                current = queue.pop()
                found = current in direct
                for target in graph.edges.get(current, ()):
                    if target not in seen:
                        seen.add(target)
                        queue.append(target)
            registers[gid] = found
        return found

    out: set[str] = set()
    names = {name for facts in model.blocks for name, _term, _definite in facts.exports}
    for name in names:
        values = model.final(name)
        if values and all(
            x.kind in (v.FUNCTION, v.CLASS) and x.is_local and reaches(x.local_id) for x in values
        ):
            out.add(name)
    return frozenset(out)
