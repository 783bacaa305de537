"""Lookups that replace linear scans and repeated walks give what the scans gave."""

from __future__ import annotations

import ast
import textwrap

from tests.helpers import analyzer
from tflsp.analysis.engine import ModuleResult
from tflsp.analysis.index import NodeIndex

SOURCE = textwrap.dedent(
    """
    import tensorflow as tf  # tflsp: ignore[TFL101]

    @tf.function
    def step(x, n):
        for i in range(n):
            x = tf.add(x, [i, (lambda k: k * i)(2)])  # tflsp: ignore
        return x


    class Block(tf.keras.layers.Layer):
        def call(self, inputs):
            return tf.nn.relu(inputs)

    value = step(tf.constant(1.0), 3)
    """
).lstrip("\n")


def _linear_block_at(result: ModuleResult, line: int) -> object:
    return next((b for b in result.blocks if b.start_line <= line <= b.end_line), None)


def test_block_at_finds_the_block_a_linear_scan_finds() -> None:
    result = analyzer().analyze(SOURCE)
    assert len(result.blocks) > 3
    for line in range(-1, SOURCE.count("\n") + 4):
        assert result.block_at(line) is _linear_block_at(result, line), line


def test_suppressions_are_in_module_lines_and_kept() -> None:
    result = analyzer().analyze(SOURCE)
    found = result.suppressions()
    lines = SOURCE.split("\n")
    assert sorted(found) == [n + 1 for n, text in enumerate(lines) if "tflsp: ignore" in text]
    assert result.suppressions() is found


def test_mentioning_matches_a_walk_of_every_node() -> None:
    tree = ast.parse(SOURCE)
    index = NodeIndex(tree)
    for names in ({"i"}, {"x", "tf"}, {"k"}, {"absent"}, set()):
        marked = index.mentioning(names)
        for node in ast.walk(tree):
            walked = any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))
            assert (node in marked) is walked, (names, ast.dump(node)[:60])
