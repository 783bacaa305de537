"""The module model built from the previous one (a few blocks edited) equals one built afresh,
and its answers too: the typing path relies on the patch (see ModuleModel._patch)."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyzer
from tflsp.analysis.semantic.model import ModuleModel

SOURCE = textwrap.dedent(
    """
    import tensorflow as tf
    import keras

    RATE = 0.1
    PATH = "runs"

    def helper(x):
        return tf.reduce_sum(x)

    class Block(keras.layers.Layer):
        def call(self, x):
            return helper(x) * RATE

    steps = tf.data.Dataset.range(10).map(lambda i: i * 2)
    model = keras.Sequential([Block()])

    def train(ds):
        global RATE
        RATE = RATE / 2
        for batch in ds:
            model(batch)

    model.save(PATH + "/model.keras")
    """
)

EDITS = [
    # typing a module-level statement (the same block, some states do not parse)
    ("steps = tf.data.Dataset.range(10)", "steps = tf.data.Dataset.range(3).batch"),
    ("steps = tf.data.Dataset.range(10)", "steps = tf.data.Dataset.range(3).batch(2)"),
    ("steps = tf.data.Dataset.range(10)", "steps = tf.data.Dataset.range(3"),
    # a statement that binds another name (other blocks read the old one)
    ('PATH = "runs"', 'PATHS = "runs"'),
    ('PATH = "runs"', 'PATH, RATE = "runs", 0.5'),
    # editing inside a function: a new nested lambda and a new global write
    ("    return tf.reduce_sum(x)", "    f = lambda y: y + 1\n    return f(x)"),
    (
        "    RATE = RATE / 2",
        "    RATE = RATE / 2\n    global PATH\n    PATH = 'other'",
    ),
    # a global created once, lazily (and a function that becomes such a writer)
    ("    RATE = RATE / 2", "    if RATE is None:\n        RATE = 0.5"),
    (
        "    return tf.reduce_sum(x)",
        "    global PATH\n    if PATH is None:\n        PATH = 'p'\n    return tf.reduce_sum(x)",
    ),
    # a method added to the class
    (
        "        return helper(x) * RATE",
        "        return helper(x) * RATE\n\n    def build(self, shape):\n        self.w = self.add_weight(shape=(1,))",
    ),
    # a new block: built afresh
    ('PATH = "runs"', 'PATH = "runs"\nRATE = 0.5'),
]


def _positional(model: ModuleModel, shape: tuple[object, ...]) -> tuple[object, ...]:
    """A name's shape with block identities as positions: an analyzer keeps the identities
    of unchanged statements across edits, a fresh one numbers them in order."""
    place = {key: k for k, key in enumerate(model.keys)}
    exports, bindings, writes = shape
    return (
        tuple((place[key], definite) for key, definite in exports),  # type: ignore[attr-defined]
        tuple(place[key] for key in bindings),  # type: ignore[attr-defined]
        tuple((place[key], writer) for key, writer in writes),  # type: ignore[attr-defined]
    )


def _tables(model: ModuleModel) -> dict[str, object]:
    assert len(set(model.keys)) == len(model.keys)
    return {
        "gids": model.gids,
        "functions": {g: (e.block, e.facts) for g, e in model.functions.items()},
        "classes": {g: (e.block, e.facts) for g, e in model.classes.items()},
        "exports": model._exports,
        "bindings": model._bindings,
        "global_writes": model._global_writes,
        "export_blocks": model._export_blocks,
        "binding_blocks": model._binding_blocks,
        "global_writers": model.global_writers,
        "methods": {g: m for g, m in model._methods.items() if m},
        "shapes": {n: _positional(model, shape) for n, shape in model.name_shapes.items()},
        "star": model.star_import_at,
        "lazy": model.lazy_global_writers(),
    }


def _answers(model: ModuleModel) -> dict[str, object]:
    names = sorted(model.name_shapes)
    return {name: model.final(name) for name in names} | {
        gid: model.returns(gid) for gid in sorted(model.functions)
    }


@pytest.mark.parametrize("old, new", EDITS)
def test_patched_model_equals_a_fresh_one(old: str, new: str) -> None:
    warm = analyzer()
    warm.analyze(SOURCE)
    edited = SOURCE.replace(old, new)
    assert edited != SOURCE
    patched = warm.analyze(edited).summary
    fresh = analyzer().analyze(edited).summary
    assert patched is not None and fresh is not None
    assert patched.model is not None and fresh.model is not None
    same_blocks = "\n" not in new.replace(old, "") or new.startswith("    ")
    assert (patched.model.evaluator.parent is not None) == same_blocks
    assert _tables(patched.model) == _tables(fresh.model)
    if patched.model.keys == fresh.model.keys:
        assert patched.model.structure == fresh.model.structure
    assert _answers(patched.model) == _answers(fresh.model)
    assert dict(patched.graph.items()) == dict(fresh.graph.items())
    assert dict(patched.saving.items()) == dict(fresh.saving.items())
    assert dict(patched.stale_globals.items()) == dict(fresh.stale_globals.items())


def test_typing_a_statement_patches_instead_of_rebuilding() -> None:
    warm = analyzer()
    warm.analyze(SOURCE)
    first = warm.analyze(SOURCE.replace('PATH = "runs"', 'PATH = "runs"\nx = 1')).summary
    second = warm.analyze(SOURCE.replace('PATH = "runs"', 'PATH = "runs"\nx = 12')).summary
    assert first is not None and second is not None
    assert first.model is not None and second.model is not None
    # The second model keeps the first one's memo (its evaluator's parent).
    assert second.model.evaluator.parent is first.model.evaluator


def test_a_statement_typed_into_a_block_that_held_nothing_is_seen() -> None:
    # The block's graph part used to be carried over when it had read nothing (no term of
    # the block evaluated): a map() typed into it then went unnoticed.
    source = textwrap.dedent(
        """
        import tensorflow as tf

        def fn(x):
            print(x)
            return x

        ds = tf.data.Dataset.range(3)
        out = 1
        """
    )
    warm = analyzer()
    assert [d.code for d in warm.analyze(source).diagnostics] == []
    typed = warm.analyze(source.replace("out = 1", "out = ds.map(fn)"))
    assert [d.code for d in typed.diagnostics] == ["TFL101"]


CROSS_BLOCK = textwrap.dedent(
    """
    import tensorflow as tf
    import keras

    scale = 1.0

    def helper(x):
        print(x)
        return x

    @tf.function
    def step(x):
        return x * scale

    class Doubler(keras.layers.Layer):
        def call(self, x):
            return x * 2

    step(tf.ones([1]))
    ds = tf.data.Dataset.range(3)
    """
)


@pytest.mark.parametrize(
    "anchor, typed",
    [
        # module code that rebinds a name a tf.function read, then calls it again
        ("ds = tf.data.Dataset.range(3)\n", "scale = 2.0; step(tf.ones([1]))"),
        # a map() that makes helper() graph code
        ("ds = tf.data.Dataset.range(3)\n", "ds2 = ds.map(helper)"),
        # a save and load of a model holding the custom layer
        (
            "ds = tf.data.Dataset.range(3)\n",
            'm = keras.Sequential([Doubler()]); m.save("m.keras"); keras.models.load_model("m.keras")',
        ),
        # inside a function: step() now calls helper()
        ("        return x * scale\n", "        helper(x)"),
    ],
)
def test_typing_char_by_char_matches_a_fresh_analysis(anchor: str, typed: str) -> None:
    warm = analyzer()
    warm.analyze(CROSS_BLOCK)
    head, _, tail = CROSS_BLOCK.partition(anchor)
    for end in range(1, len(typed) + 1):
        text = head + anchor + typed[:end] + "\n" + tail
        got = [(d.line, d.code) for d in warm.analyze(text).diagnostics]
        want = [(d.line, d.code) for d in analyzer().analyze(text).diagnostics]
        assert got == want, (end, typed[:end])
