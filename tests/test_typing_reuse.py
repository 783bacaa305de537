"""What typing reuses between keystrokes gives exactly what analysing each text afresh gives.

A half-typed line is recovered (neutralised) to the same text keystroke after keystroke: the
tree, index, facts and findings of that recovered text are reused.  These tests type through
every intermediate state and compare each result with an analyzer that reuses none of it, and
check that a detector reading the half-typed line itself is never answered from another
keystroke.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Hashable
from typing import Any

import pytest

from tests.helpers import CATALOG, analyzer
from tests.test_incremental_engine import compare, parses, signature
from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Diagnostic
from tflsp.analysis.engine import Analyzer
from tflsp.analysis.generations import Generations
from tflsp.analysis.registry import Detector


class Forgetful(Generations[Any, Any]):
    """A cache that never answers."""

    def get(self, key: Hashable) -> None:
        return None

    def peek(self, key: Hashable) -> None:
        return None


def without_reuse() -> Analyzer:
    """An analyzer that recovers and checks every half-typed text on its own."""
    plain = analyzer()
    plain._recovered = Forgetful()
    plain._cutter._recoveries = Forgetful()
    return plain


def states(source: str, after: str, indent: str, statement: str) -> list[str]:
    """Every text an editor sends while ``statement`` is typed on a new line after the
    first line containing ``after``."""
    lines = source.split("\n")
    at = next(i for i, line in enumerate(lines) if after in line) + 1
    out = []
    for end in range(len(statement) + 1):
        typed = [*lines[:at], indent + statement[:end], *lines[at:]]
        out.append("\n".join(typed))
    return out


def compare_typing(texts: list[str]) -> int:
    """Type through ``texts`` with and without reuse; returns how many were half-typed."""
    warm, plain = analyzer(), without_reuse()
    broken = 0
    for text in texts:
        reused = warm.analyze(text)
        fresh = plain.analyze(text)
        assert [signature(d) for d in reused.diagnostics] == [
            signature(d) for d in fresh.diagnostics
        ], text
        broken += any(d.code == "TFL000" for d in reused.diagnostics)
    return broken


LAYER = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    class Scale(keras.layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units))
            self.bias = tf.Variable(tf.zeros([self.units]))

        @tf.function
        def call(self, inputs):
            print("tracing", inputs)
            x = tf.matmul(inputs, self.w)
            return x + self.bias


    model = keras.Sequential([Scale(4)])
    """
)

TYPED = [
    "outputs = tf.concat([inputs, self.bias], axis=-1)",
    "print(tf.reduce_sum(inputs).numpy(), np.random.rand())",
    "self.extra = tf.Variable(tf.random.normal([self.units]))",
    "for i in range(tf.shape(inputs)[0]):",
]


@pytest.mark.parametrize("statement", TYPED)
def test_typing_in_a_method_equals_checking_every_state_afresh(statement: str) -> None:
    texts = states(LAYER, "x = tf.matmul", "        ", statement)
    assert compare_typing(texts) > 5  # most states are half-typed


@pytest.mark.parametrize(
    "code", [p.code for p in CATALOG if p.bad_path.read_text(encoding="utf-8").count("\n    ")]
)
def test_typing_in_each_bad_example_equals_checking_every_state_afresh(code: str) -> None:
    source = CATALOG[code].bad_path.read_text(encoding="utf-8")
    lines = source.split("\n")
    # The deepest-indented line of the first function or class body: type after it.
    body = [line for line in lines if line.startswith("    ") and line.strip()]
    last = body[len(body) // 2]
    indent = last[: len(last) - len(last.lstrip())]
    texts = states(source, last, indent, "value = tf.reduce_mean(tf.stack([x, y]), axis=0)")
    compare_typing(texts)


def test_findings_that_read_the_half_typed_line_are_not_reused() -> None:
    # A detector whose finding quotes the neutralised line: two keystrokes with the same
    # recovery must not share it.
    def quote(ctx: BlockContext) -> None:
        for line in range(1, ctx.tree.body[0].end_lineno + 1 if ctx.tree.body else 1):
            text = ctx.line_text(line)
            if "(" in text and ")" not in text:
                ctx.report("TFL101", (1, 0, 1, 1), args={"name": text.strip()})

    warm = analyzer()
    warm._detectors = [Detector(frozenset({"TFL101"}), quote, "quote")]
    source = "def f(x):\n    y = 1\n    return y\n"
    first = source.replace("    y = 1\n", "    y = g(\n")
    second = source.replace("    y = 1\n", "    y = g(x\n")
    warm.analyze(first)
    found = [d.args.get("name") for d in warm.analyze(second).diagnostics if d.code == "TFL101"]
    assert found == ["y = g(x"]


def test_a_whole_text_read_keeps_the_findings_to_their_text() -> None:
    seen: list[bool] = []

    def whole(ctx: BlockContext) -> None:
        seen.append("needle" in ctx.text)

    warm = analyzer()
    warm._detectors = [Detector(frozenset({"TFL101"}), whole, "whole")]
    source = "def f(x):\n    y = 1\n    return y\n"
    warm.analyze(source.replace("    y = 1\n", "    y = g(\n"))
    warm.analyze(source.replace("    y = 1\n", "    y = g(needle\n"))
    assert seen == [False, True]


def test_contains_is_checked_again_for_another_keystroke() -> None:
    seen: list[bool] = []

    def contains(ctx: BlockContext) -> None:
        seen.append(ctx.contains("needle"))

    warm = analyzer()
    warm._detectors = [Detector(frozenset({"TFL101"}), contains, "contains")]
    source = "def f(x):\n    y = 1\n    return y\n"
    warm.analyze(source.replace("    y = 1\n", "    y = g(\n"))
    warm.analyze(source.replace("    y = 1\n", "    y = g(x\n"))  # same answer: reused
    warm.analyze(source.replace("    y = 1\n", "    y = g(needle\n"))
    assert seen == [False, True]


def test_half_typed_versions_share_one_tree() -> None:
    warm = analyzer()
    source = "def f(x):\n    y = 1\n    return y\n"
    first = warm.analyze(source.replace("    y = 1\n", "    y = g(\n"))
    second = warm.analyze(source.replace("    y = 1\n", "    y = g(x, \n"))
    a, b = first.blocks[0].analysis, second.blocks[0].analysis
    assert a is not b and a.parsed.error is not None and b.parsed.error is not None
    assert a.parsed.tree is b.parsed.tree and a.index is b.index


def test_equal_facts_of_a_reparsed_block_are_the_summarys_objects() -> None:
    # A comment typed in a function re-parses it to equal facts: the block then holds the
    # objects the summary was built from, so later keystrokes compare them by identity.
    warm = analyzer()
    first = warm.analyze(LAYER)
    edited = LAYER.replace("x = tf.matmul", "# scale\n        x = tf.matmul")
    second = warm.analyze(edited)
    assert second.summary is first.summary
    k = next(i for i, b in enumerate(second.blocks) if "class Scale" in b.analysis.text)
    assert second.blocks[k].analysis is not first.blocks[k].analysis
    assert second.blocks[k].analysis.facts is first.summary.block_facts[k]
    assert [signature(d) for d in second.diagnostics] == [
        signature(d) for d in analyzer().analyze(edited).diagnostics
    ]


# -- statements keep their identity when a statement is inserted or deleted above them -----
def count_checks(warm: Analyzer, text: str) -> tuple[int, list[Diagnostic]]:
    made: list[int] = []
    original = BlockContext.__init__

    def counting_init(self: BlockContext, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        original(self, *args, **kwargs)

    BlockContext.__init__ = counting_init  # type: ignore[method-assign]
    try:
        result = warm.analyze(text)
    finally:
        BlockContext.__init__ = original  # type: ignore[method-assign]
    return len(made), result.diagnostics


SCRIPT = textwrap.dedent(
    """\
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras

    x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
    class_ids = np.random.randint(0, 3, size=(32,))
    one_hot = keras.utils.to_categorical(class_ids, 3)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(x, one_hot, epochs=1, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices(x)
    for batch in ds:
        print(batch.numpy())
    total = tf.reduce_sum(x)
    print(total.numpy())
    """
)


def test_a_statement_typed_above_others_leaves_their_findings_alone() -> None:
    warm = analyzer()
    warm.analyze(SCRIPT)
    lines = SCRIPT.split("\n")
    at = lines.index("ds = tf.data.Dataset.from_tensor_slices(x)")
    for typed in ("v", "va", "val"):
        text = "\n".join([*lines[:at], typed, *lines[at:]])
        checks, diagnostics = count_checks(warm, text)
        # The new statement only (before, every statement below it was checked again).
        assert checks <= 1, typed
        assert [signature(d) for d in diagnostics] == [
            signature(d) for d in analyzer().analyze(text).diagnostics
        ]


def test_a_statement_inserted_before_a_fit_rechecks_what_reads_the_setup() -> None:
    # A new model inserted between the compile and the fit: the fit no longer trains the
    # compiled model, so the compile's finding goes; the blocks that read the model's name or
    # the module fact of setup sites are checked again, the others are not.
    warm = analyzer()
    before = warm.analyze(SCRIPT).diagnostics
    assert "TFL801" in {d.code for d in before}
    text = SCRIPT.replace(
        "model.fit(",
        "model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])\nmodel.fit(",
    )
    checks, diagnostics = count_checks(warm, text)
    cold = analyzer().analyze(text).diagnostics
    assert [signature(d) for d in diagnostics] == [signature(d) for d in cold]
    assert "TFL801" not in {d.code for d in cold}
    assert checks < len(text.split("\n")) // 2


def top_level_edits(rng: random.Random, lines: list[str]) -> list[list[str]]:
    """One edit of the module's top level, as the states an editor sends."""
    starts = [i for i, line in enumerate(lines) if line[:1].isalpha() or line[:1] == "@"]
    at = rng.choice(starts) if starts else 0
    choice = rng.randrange(4)
    if choice == 0:  # type a statement above another, character by character
        statement = rng.choice(MODULE_STATEMENTS)
        return [[*lines[:at], statement[:end], *lines[at:]] for end in range(1, len(statement) + 1)]
    if choice == 1:  # delete a line
        return [lines[:at] + lines[at + 1 :]]
    if choice == 2 and at + 1 < len(lines):  # move a line down (one edit)
        return [[*lines[:at], lines[at + 1], lines[at], *lines[at + 2 :]]]
    # paste a copy of a line further down
    to = rng.randrange(at, len(lines) + 1)
    return [[*lines[:to], lines[at], *lines[to:]]]


MODULE_STATEMENTS = [
    "x = [1, 2, 3]",
    "model = keras.Sequential([keras.layers.Dense(1)])",
    'model.compile(optimizer="adam", loss="mse")',
    "tf.config.run_functions_eagerly(True)",
    "ds = tf.data.Dataset.range(8).batch(2)",
    "y = tf.reduce_sum(x)",
    "print(x)",
    "import numpy as np",
]


@pytest.mark.parametrize("code", [p.code for p in CATALOG])
def test_top_level_edits_equal_a_fresh_analysis(code: str) -> None:
    rng = random.Random(code)
    warm = analyzer()
    lines = CATALOG[code].bad_path.read_text(encoding="utf-8").split("\n")
    warm.analyze("\n".join(lines))
    compared = 0
    for _ in range(6):
        for state in top_level_edits(rng, lines):
            compared += compare(warm, "\n".join(state))
        if parses("\n".join(state)):
            lines = state
        else:
            compared += compare(warm, "\n".join(lines))
    assert compared > 0
