"""The block tables of :mod:`tflsp.analysis.block_names` give what the walks they replace gave.

Each table is compared with the scan a detector used to write, on every block of the catalog's
examples and of examples/, and on blocks big enough to take the table path (a block with few
calls or attributes is filtered directly).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Collection
from pathlib import Path

import pytest

from tests.analysis.helpers import contexts
from tflsp.analysis.block_names import (
    attributes_named,
    calls_of,
    keyword_calls,
    name_chains,
    stored_names,
)
from tflsp.analysis.context import BlockContext

ROOT = Path(__file__).resolve().parents[2]

# One block with many calls and attributes (the table path), names repeated and mixed.
BIG = textwrap.dedent(
    """
    import numpy as np
    import tensorflow as tf

    class Block(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=shape, initializer="zeros")
            self.v = tf.Variable(tf.zeros(shape), trainable=False)
            self.items = []

        def call(self, x, training=None):
            print(x.shape, tf.shape(x))
            self.items.append(x.numpy())
            y = tf.reduce_sum(x, axis=-1, keepdims=True) + np.random.rand()
            z = tf.keras.backend.mean(y, axis=0)
            for i in range(3):
                y = tf.concat([y, z], axis=0)
                self.items.append(i)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(y)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            a.b.c.d(e.f(g.h).i, lr=0.1)
            (lambda q: q).r.s()
            return print(tf.print(y), lr=1, **kwargs)
    """
)


def _sources() -> list[str]:
    paths = sorted((ROOT / "tflsp" / "catalog" / "patterns").glob("*/*.py"))
    paths += sorted((ROOT / "examples").rglob("*.py"))
    return [BIG, *(p.read_text(encoding="utf-8") for p in paths)]


def _contexts() -> list[BlockContext]:
    out: list[BlockContext] = []
    for source in _sources():
        out.extend(contexts(source))
    return out


CONTEXTS = _contexts()

# Name sets as detectors pass them: tuples, frozensets, a dict (the module's imports).
NAME_SETS: list[tuple[Collection[str], Collection[str], Collection[str]]] = [
    (("append",), (), ()),
    ((), ("print",), ()),
    (("numpy", "gradient"), ("print", "zip"), ()),
    ((), (), ("lr",)),
    (frozenset({"apply_gradients", "d", "s"}), ("range",), ("axis", "keepdims")),
    (("reduce_sum",), {"np": "numpy", "tf": "tensorflow", "print": "builtins.print"}, ()),
    (frozenset({"missing"}), frozenset({"absent"}), frozenset({"nowhere"})),
]


def _scanned_calls(
    ctx: BlockContext,
    methods: Collection[str],
    functions: Collection[str],
    keywords: Collection[str],
) -> list[ast.Call]:
    out = []
    for call in ctx.index.nodes(ast.Call):
        func = call.func
        if (
            (isinstance(func, ast.Attribute) and func.attr in methods)
            or (isinstance(func, ast.Name) and func.id in functions)
            or any(kw.arg in keywords for kw in call.keywords if kw.arg is not None)
        ):
            out.append(call)
    return out


def _outermost_chains(ctx: BlockContext) -> list[tuple[ast.Attribute, ast.Name]]:
    out = []
    for node in ctx.index.nodes(ast.Attribute):
        parent = ctx.index.parent(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            continue
        root: ast.expr = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):
            out.append((node, root))
    return out


def test_the_big_block_takes_the_table_path() -> None:
    ctx = contexts(BIG)[-1]
    assert len(ctx.index.nodes(ast.Call)) > 20 and len(ctx.index.nodes(ast.Attribute)) > 20
    calls_of(ctx, ("append",))
    attributes_named(ctx, ("numpy",))
    assert "block_names.calls" in ctx.memo and "block_names.attributes" in ctx.memo


@pytest.mark.parametrize("names", NAME_SETS)
def test_calls_of_is_the_scan_in_source_order(
    names: tuple[Collection[str], Collection[str], Collection[str]],
) -> None:
    for ctx in CONTEXTS:
        methods, functions, keywords = names
        # Asked twice: the second answer comes from the table the first one built.
        assert calls_of(ctx, methods, functions, keywords) == _scanned_calls(ctx, *names)
        assert calls_of(ctx, methods, functions, keywords) == _scanned_calls(ctx, *names)


def test_keyword_calls_are_the_calls_passing_a_named_keyword() -> None:
    for ctx in CONTEXTS:
        expected = [
            c for c in ctx.index.nodes(ast.Call) if any(k.arg is not None for k in c.keywords)
        ]
        assert keyword_calls(ctx) == expected


def test_name_chains_are_the_outermost_chains_on_a_name() -> None:
    for ctx in CONTEXTS:
        assert name_chains(ctx) == _outermost_chains(ctx)
    chains = name_chains(contexts(BIG)[-1])
    texts = {ast.unparse(node) for node, _ in chains}
    assert "tf.keras.backend.mean" in texts and "tf.keras.backend" not in texts
    assert "a.b.c.d" in texts and "e.f" in texts and "g.h" in texts
    assert not any(text.endswith(".r.s") for text in texts)  # a chain on a lambda


@pytest.mark.parametrize("names", [("numpy",), frozenset({"shape", "items", "append", "nope"})])
def test_attributes_named_is_the_scan_in_source_order(names: Collection[str]) -> None:
    for ctx in CONTEXTS:
        expected = [n for n in ctx.index.nodes(ast.Attribute) if n.attr in names]
        assert attributes_named(ctx, names) == expected


def test_stored_names_are_the_store_names_by_identifier() -> None:
    for ctx in CONTEXTS:
        expected: dict[str, list[ast.Name]] = {}
        for node in ctx.index.nodes(ast.Name):
            if isinstance(node.ctx, ast.Store):
                expected.setdefault(node.id, []).append(node)
        assert stored_names(ctx) == expected


def test_tables_live_in_the_context_memo() -> None:
    ctx = contexts(BIG)[-1]
    first = name_chains(ctx)
    assert name_chains(ctx) is first
    ctx.memo.clear()  # what the engine does after a block's check
    assert name_chains(ctx) is not first and name_chains(ctx) == first


def test_has_functions_and_keras_classes() -> None:
    blocks = contexts(
        """
        import tensorflow as tf
        square = lambda x: x * x

        class Plain:
            pass

        class Dense(tf.keras.layers.Layer):
            pass
        """
    )
    blocks = [ctx for ctx in blocks if ctx.tree.body]
    assert [ctx.index.has_functions() for ctx in blocks] == [False, True, False, False]
    assert [[kind for _, kind in ctx.keras_classes()] for ctx in blocks] == [[], [], [], ["layer"]]
    assert blocks[3].keras_classes() is blocks[3].keras_classes()
