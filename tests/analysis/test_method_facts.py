"""Typing in one method of a class reuses what the other methods contributed to the block's facts.

Every version's facts must equal a fresh extraction's: the core facts, the families' facts and
the semantic facts, in order, with the right lines.  The edits here change what other methods
contribute (ids numbered across the class, names the class body binds, the class's name and
bases, attributes set on ``self``) or make a method unfit for reuse (a lambda in its defaults,
a loop-carried value in its terms); each is checked against a fresh extraction, and so are the
terms detectors ask for afterwards, in another order.
"""

from __future__ import annotations

import ast
import gc
import textwrap
import weakref
from collections.abc import Callable, Iterator

import pytest

from tests.helpers import analyzer
from tests.test_incremental_engine import signature
from tflsp.analysis.engine import ModuleResult
from tflsp.analysis.facts import BlockFacts, extract_facts, semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import module_facts
from tflsp.analysis.semantic.block import MethodPlan, plan_methods

MODULE_FACTS = tuple(module_facts())

PROBE = textwrap.dedent(
    """\
    class Probe(keras.layers.Layer):
        scale = 2.0
        JIT = True
        make = staticmethod(lambda n: n * 2)

        def __init__(self, units, act=None, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.act = act or (lambda t: t)
            self.count: int = 0

        @property
        def size(self):
            return self.units * self.scale

        @size.setter
        def size(self, value):
            self.units = value

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], self.units))

            def helper(x):
                return tf.matmul(x, self.w)

            self.helper = helper
            self.count += 1

        @tf.function(jit_compile=JIT)
        def call(self, inputs, training=None):
            total = tf.zeros([])
            for row in inputs:
                total += tf.reduce_sum(row)
            if training:
                return self.helper(inputs) + total
            return inputs

        def steps(self, data, k=int(scale)):
            global CALLS
            if CALLS is None:
                CALLS = 0
            out = [self.act(d) for d in data]
            fn = lambda v: v + 1
            return list(map(fn, out))

        def config(self):
            class Inner:
                def __init__(inner):
                    inner.ready = tf.Variable(1.0)

            with tf.device("/cpu:0"):
                made = Inner()
            return {"units": self.units, "inner": made}

        async def fetch(self, source):
            value = await source.read()
            self.fetched = value
            return value
    """
)


def index_of(text: str) -> NodeIndex:
    return NodeIndex(ast.parse(text))


def fresh(text: str) -> BlockFacts:
    return extract_facts(index_of(text), MODULE_FACTS)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def typed(text: str, after: str, statement: str) -> Iterator[str]:
    """Every state of ``statement`` typed on a new line after the line holding ``after``."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if after in line)
    indent = " " * (len(lines[at]) - len(lines[at].lstrip()))
    for end in range(len(statement) + 1):
        yield "\n".join([*lines[: at + 1], indent + statement[:end], *lines[at + 1 :]])


def follow(texts: list[str]) -> list[tuple[BlockFacts, BlockFacts]]:
    """Each version's facts made from the last version that parsed, and made afresh: equal.
    The first version's facts are made as while typing, so that they keep methods' parts."""
    before = extract_facts(index_of(texts[0]), MODULE_FACTS, fresh(texts[0]), texts[0])
    out = []
    for text in texts[1:]:
        if not parses(text):
            continue
        warm = extract_facts(index_of(text), MODULE_FACTS, before, text)
        cold = fresh(text)
        assert warm == cold, text
        assert warm.semantic.functions == cold.semantic.functions
        assert warm.members is not None
        out.append((before, warm))
        before = warm
    return out


def reused(before: BlockFacts, after: BlockFacts) -> int:
    """How many methods' parts ``after`` took over from ``before`` (the very objects)."""
    if not before.members or not after.members:
        return 0
    return sum(1 for key, part in after.members.items() if before.members.get(key) is part)


def edit(old: str, new: str) -> Callable[[str], str]:
    def apply(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)

    return apply


def test_the_probe_has_methods_to_follow() -> None:
    index = index_of(PROBE)
    plan = plan_methods(semantics_of(index), PROBE)
    assert isinstance(plan, MethodPlan)
    # Every method, ``size`` twice (getter, setter), and none of the class-level statements.
    assert len(plan.members) == 8


def test_typing_in_a_method_reuses_the_others_and_equals_a_fresh_extraction() -> None:
    texts = list(typed(PROBE, "self.w = self.add_weight", "z = tf.concat([self.w, x], axis=0)"))
    pairs = follow(texts)
    assert len(pairs) >= 5
    for before, after in pairs[1:]:
        # The methods typed in and ``call`` (a loop-carried value) are worked out again.
        assert reused(before, after) >= 6


EDITS = {
    "attribute set in another method": edit(
        "        fn = lambda v: v + 1\n",
        "        fn = lambda v: v + 1\n        self.extra = tf.Variable(fn(1))\n",
    ),
    "lambda numbered before another": edit(
        "        out = [self.act(d) for d in data]\n",
        "        key = lambda k: k\n        out = [self.act(key(d)) for d in data]\n",
    ),
    "class-level lambda": edit(
        "    scale = 2.0\n", "    scale = 2.0\n    twice = lambda self: 2\n"
    ),
    "nested def": edit(
        "        self.helper = helper\n",
        "        def helper2(y):\n            return y\n\n        self.helper = helper2\n",
    ),
    "a second method of the same name first": edit(
        "    def build(self, shape):\n",
        "    def steps(self):\n        return 0\n\n    def build(self, shape):\n",
    ),
    "renamed method": edit("    def config(self):\n", "    def get_config(self):\n"),
    "renamed property getter": edit(
        "    @property\n    def size(self):\n", "    @property\n    def length(self):\n"
    ),
    "renamed class": edit("class Probe(", "class Sonde("),
    "new bases": edit("class Probe(keras.layers.Layer):", "class Probe(keras.Model, Mixin):"),
    "class attribute a default reads": edit("    scale = 2.0\n", "    scale = tf.constant(3)\n"),
    "class attribute a decorator reads": edit(
        "    JIT = True\n", "    JIT = tf.test.is_gpu_available()\n"
    ),
    "name a decorator reads bound in the class": edit(
        "    JIT = True\n", "    JIT = True\n    tf = tensorflow_twin\n"
    ),
    "lambda in defaults": edit("    def config(self):\n", "    def config(self, f=lambda: 1):\n"),
    "decorator added": edit(
        "    def steps(self, data, k=int(scale)):\n",
        "    @tf.function\n    def steps(self, data, k=int(scale)):\n",
    ),
    "class-level raise": edit("    JIT = True\n", "    JIT = True\n    raise TypeError\n"),
    "class-level raise after a method": edit(
        "    @property\n", "    if FLAG:\n        raise TypeError\n\n    @property\n"
    ),
    "method moved": lambda text: text.replace(
        "    async def fetch(self, source):\n"
        "        value = await source.read()\n"
        "        self.fetched = value\n"
        "        return value\n",
        "",
    ).replace(
        "    @property\n",
        "    async def fetch(self, source):\n"
        "        value = await source.read()\n"
        "        self.fetched = value\n"
        "        return value\n\n"
        "    @property\n",
    ),
    "method deleted": edit(
        "    def config(self):\n",
        "    def config(self):\n        return {}\n\n    def old(self):\n",
    ),
    "global written elsewhere": edit(
        "        value = await source.read()\n",
        "        global CALLS\n        CALLS = 1\n        value = await source.read()\n",
    ),
    "self renamed": edit("    def build(self, shape):\n", "    def build(me, shape):\n"),
    "staticmethod": edit(
        "    def steps(self, data, k=int(scale)):\n",
        "    @staticmethod\n    def steps(self, data, k=int(scale)):\n",
    ),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_an_edit_that_changes_what_other_methods_contribute(name: str) -> None:
    changed = EDITS[name](PROBE)
    assert changed != PROBE and parses(changed)
    # There and back: both directions, each from the other's facts.
    follow([PROBE, changed, PROBE])
    # And typing a statement into another method afterwards.
    follow([changed, *typed(changed, "self.units = value", "self.seen = tf.abs(value)")])


def test_a_method_whose_terms_were_cut_short_is_not_kept() -> None:
    # ``total += ...`` in a loop builds a term that meets itself: what is memoised then
    # depends on which node was asked first, so ``call`` is worked out again every time.
    before = fresh(PROBE)
    text = PROBE.replace("        self.count += 1\n", "        self.count += 2\n")
    after = extract_facts(index_of(text), MODULE_FACTS, before, text)
    assert after.members is not None
    kept = {key[0].split("(")[0].strip() for key in after.members}
    assert "@tf.function\n    def call" not in kept
    assert not any("total += tf.reduce_sum(row)" in key[0] for key in after.members)
    assert any("def steps" in key[0] for key in after.members)


def all_terms(index: NodeIndex) -> list[object]:
    """The terms of every expression of the block, asked for from the last to the first (not
    the order the facts ask in), as detectors might."""
    terms = semantics_of(index).terms
    nodes = [n for n in ast.walk(index.tree) if isinstance(n, ast.expr)]
    return [terms.expr(n) for n in reversed(nodes)]


@pytest.mark.parametrize("name", ["nested def", "attribute set in another method", "renamed class"])
def test_terms_asked_after_reused_facts_equal_a_fresh_analysiss(name: str) -> None:
    before = fresh(PROBE)
    text = EDITS[name](PROBE)
    warm_index, cold_index = index_of(text), index_of(text)
    warm = extract_facts(warm_index, MODULE_FACTS, before, text)
    cold = extract_facts(cold_index, MODULE_FACTS)
    assert warm == cold
    assert all_terms(warm_index) == all_terms(cold_index)


def test_kept_parts_hold_no_tree() -> None:
    before = fresh(PROBE)
    text = PROBE.replace("        self.count += 1\n", "        self.count += 2\n")
    after = extract_facts(index_of(text), MODULE_FACTS, before, text)
    seen: set[int] = set()
    stack: list[object] = [after.members]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (str, int, float, bytes, type(None), type)):
            continue  # a class leads to its module, which is no part of the facts
        seen.add(id(item))
        assert not isinstance(item, (ast.AST, NodeIndex, BlockFacts)), type(item)
        stack.extend(gc.get_referents(item))


def test_only_a_class_block_is_followed_method_by_method() -> None:
    text = "def f(x):\n    return x\n\nclass A:\n    def g(self):\n        return 1\n"
    assert plan_methods(semantics_of(index_of(text)), text) is None
    assert extract_facts(index_of(text), MODULE_FACTS, fresh(text), text).members is None


MODULE = (
    "import tensorflow as tf\nfrom tensorflow import keras\n\n\n"
    + PROBE
    + ("\n\nmodel = keras.Sequential([Probe(4)])\nmodel.compile(loss='mse')\n")
)


@pytest.mark.parametrize(
    ("after", "statement"),
    [
        ("self.w = self.add_weight", "print(tf.reduce_sum(self.w).numpy(), np.random.rand())"),
        ("self.units = value", "self.extra = tf.Variable(tf.random.normal([value]))"),
        ("value = await source.read()", "fn2 = lambda t: tf.cast(t, tf.float32)"),
    ],
)
def test_typing_in_a_method_through_the_engine_equals_a_fresh_analysis(
    after: str, statement: str
) -> None:
    warm = analyzer()
    warm.analyze(MODULE)
    for text in typed(MODULE, after, statement):
        got = warm.analyze(text)
        cold = analyzer().analyze(text)
        assert [signature(d) for d in got.diagnostics] == [
            signature(d) for d in cold.diagnostics
        ], text
        k = next(i for i, b in enumerate(got.blocks) if "class Probe" in b.analysis.text)
        if got.blocks[k].analysis.parsed.error is None:
            assert got.blocks[k].analysis.facts == cold.blocks[k].analysis.facts


def class_facts(result: ModuleResult) -> BlockFacts:
    view = next(b for b in result.blocks if "class Probe" in b.analysis.text)
    return view.analysis.facts


def test_the_engine_hands_a_class_blocks_last_facts_to_its_next_version() -> None:
    warm = analyzer()
    warm.analyze(MODULE)
    texts = [t for t in typed(MODULE, "self.units = value", "self.seen = tf.abs(value)")]
    last: BlockFacts | None = None
    taken = 0
    for text in texts:
        result = warm.analyze(text)
        if any(d.code == "TFL000" for d in result.diagnostics):
            continue
        facts = class_facts(result)
        assert facts.members is not None  # made while typing, kept for the next keystroke
        if last is not None:
            taken = max(taken, reused(last, facts))
        last = facts
    assert taken >= 6


def test_typing_in_a_class_keeps_no_old_tree_alive() -> None:
    # What the next version takes over is values: a version's tree goes with its analysis,
    # two keystrokes later at most, however long the block stays the one being edited.
    warm = analyzer()
    trees: list[weakref.ref[ast.Module]] = []
    gc.disable()  # reference counting alone must free them
    try:
        for text in typed(MODULE, "self.units = value", "self.seen = tf.abs(value + value)"):
            result = warm.analyze(text)
            view = next(b for b in result.blocks if "class Probe" in b.analysis.text)
            tree = view.analysis.parsed.tree
            assert tree is not None
            trees.append(weakref.ref(tree))
            del result, view, tree
        alive = [k for k, ref in enumerate(trees) if ref() is not None]
    finally:
        gc.enable()
    assert len(trees) > 20 and alive and min(alive) >= len(trees) - 3
