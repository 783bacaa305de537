"""A grafted class block walks only the method the edit changed; its flow is the same.

When typing grafts a method into the last tree (``tflsp.analysis.graft``), the other methods are
the same nodes, and their walk (uses, ``+=`` targets, scopes) is taken from the last version's
flow.  These tests build the flow of every grafted line edit twice, with and without the last
version's flow, and compare everything the flow holds, in order.
"""

from __future__ import annotations

import ast
import random
from typing import Any

from tests.analysis.test_graft import CLASS, _parse, line_edits, real_classes
from tflsp.analysis.graft import graft_method
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.semantic import flow as flow_module
from tflsp.analysis.semantic.flow import BlockFlow, Scope

# A method that reads its class's name, closures, a comprehension, a lambda default, a walrus,
# ``global`` writes (walked again each time) and a nested class; and two methods of one name.
EXTRA = """
class Tricky:
    scale = 2

    def __init__(self, n=lambda: 1):
        self.n = [v for v in range(3) if (w := v)]
        total = 0
        total += sum(self.n)

        def inner():
            return total + w

        class Local:
            def method(self):
                return inner()

        self.local = Local

    def bump(self):
        global COUNTER
        COUNTER += 1

    def same(self):
        return 1

    def same(self):  # noqa: F811
        return 2
"""


def _scope(scope: Scope) -> tuple[Any, ...]:
    return (
        scope.node,
        scope.kind,
        scope.parent.node if scope.parent is not None else None,
        scope.local_id,
        scope.locals,
        scope.globals,
        scope.nonlocals,
        scope.bindings,
        scope.returns,
        scope.is_generator,
        scope.star_import,
    )


def _contents(flow: BlockFlow) -> dict[str, Any]:
    return {
        "uses": list(flow.uses.items()),
        "before": list(flow.before.items()),
        "scopes": [(node, _scope(scope)) for node, scope in flow.scopes.items()],
        "local_ids": list(flow.local_ids.items()),
        "global_writes": {k: list(v) for k, v in flow.global_writes.items()},
        "exports": flow.exports,
    }


def check(old_text: str, new_text: str, walked: list[ast.AST]) -> ast.Module | None:
    """Graft ``new_text`` from ``old_text`` and compare its flow built both ways (the grafted
    tree, or None).  ``walked`` collects the functions walked with the donor."""
    old_tree = _parse(old_text)
    old_index = NodeIndex(old_tree)
    donor = BlockFlow(old_index)
    tree = graft_method(old_tree, old_text, new_text)
    if tree is None:
        return None
    index = NodeIndex(tree)
    original = flow_module._Walker._function

    def counted(self: Any, fn: ast.AST) -> None:
        walked.append(fn)
        original(self, fn)

    flow_module._Walker._function = counted  # type: ignore[method-assign]
    try:
        reused = BlockFlow(index, donor)
    finally:
        flow_module._Walker._function = original  # type: ignore[method-assign]
    fresh = BlockFlow(index)
    assert _contents(reused) == _contents(fresh), new_text
    assert list(reused.members) == list(fresh.members)
    return tree


def test_every_grafted_edit_of_a_class_gives_the_flow_a_fresh_walk_gives() -> None:
    for text in (CLASS, EXTRA.lstrip("\n")):
        for new_text in line_edits(text):
            walked: list[ast.AST] = []
            tree = check(text, new_text, walked) if new_text != text else None
            renames = "def " in "".join(set(new_text.split("\n")) ^ set(text.split("\n")))
            if tree is not None and not renames:
                # Of the class's methods, only the edited one is walked, and those that write
                # globals (walked each time; a renamed method may rename others: ``#2``).
                cls = tree.body[0]
                assert isinstance(cls, ast.ClassDef)
                members = [n for n in walked if any(n is m for m in cls.body)]
                writers = [
                    m for m in members if any(isinstance(g, ast.Global) for g in ast.walk(m))
                ]
                assert len(members) - len(writers) <= 1


def test_a_method_is_taken_only_under_the_same_local_ids() -> None:
    text = EXTRA.lstrip("\n")
    # Renaming the first ``same`` moves the ``#2`` off the second: it is walked again.
    new_text = text.replace(
        "    def same(self):\n        return 1", "    def sam(self):\n        return 1"
    )
    walked: list[ast.AST] = []
    assert check(text, new_text, walked) is not None
    names = [n.name for n in walked if isinstance(n, ast.FunctionDef)]
    assert names.count("same") == 1 and "sam" in names


def test_real_classes() -> None:
    rng = random.Random(5)
    grafted = 0
    for text in rng.sample(real_classes(rng), 20):
        for new_text in line_edits(text, rng):
            grafted += new_text != text and check(text, new_text, []) is not None
    assert grafted > 50
