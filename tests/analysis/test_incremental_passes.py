"""Module-wide passes that reuse the previous summary's pieces (saving sites, the combines of
module facts) give, at every keystroke, exactly what a fresh analysis of the text gives."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyzer
from tests.test_incremental_engine import signature
from tflsp.analysis.dataflow import Program
from tflsp.analysis.dataflow_run import Flow
from tflsp.analysis.detectors import data
from tflsp.analysis.detectors.data import DataModuleInfo
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.summary import ModuleSummary

# The module-wide tables a keystroke may leave stale if a pass reused a piece it should not.
FACTS = (
    "practice.module_tensors",
    "tflsp.data",
    "practice.randomness",
    "migration.keras_values",
)


def tables(summary: ModuleSummary | None) -> dict[str, object]:
    assert summary is not None
    out: dict[str, object] = {name: dict.get(summary.extra, name) for name in FACTS}
    out["saving"] = dict(summary.saving.items())
    out["stale_globals"] = dict(summary.stale_globals.items())
    return out


def typing(source: str, after: str, statement: str, indent: str = "") -> list[str]:
    """Every text an editor sends while ``statement`` is typed on a new line after the first
    line containing ``after`` (``""``: at the top)."""
    lines = source.split("\n")
    at = next(i for i, line in enumerate(lines) if after in line) + 1 if after else 0
    return [
        "\n".join([*lines[:at], indent + statement[:end], *lines[at:]])
        for end in range(len(statement) + 1)
    ]


def data_in_one_run(summary: ModuleSummary) -> DataModuleInfo:
    """The data family's module fact as it was first written: every block's program run in
    module order by one flow (the fact now runs groups of blocks linked by names apart)."""
    assert summary.model is not None
    model = summary.model
    blocks = [dict(b.extra).get(data.FACT) for b in summary.block_facts]
    programs = [b if isinstance(b, data.DataBlockFacts) else None for b in blocks]
    functions: dict[str, list[data.FunctionRandomness]] = {}
    for block in programs:
        for fn in block.functions if block is not None else ():
            functions.setdefault(fn.name, []).append(fn)
    graph, eager = data._random_functions(functions, summary.resolve)

    def is_dataset(term: Term, k: int) -> bool:
        return v.all_of(model.value(term, k), lambda x: x.kind == v.DATASET)

    flow = Flow(data._random_map_check(summary.resolve, graph, eager), (), is_dataset)
    for k, block in enumerate(programs):
        if block is not None and block.program:
            flow.run(block.program, k)
    per_block: dict[int, list[data.LocalNote]] = {}
    for note in flow.notes:
        k = note.site[0]
        other = note.other[1] if note.other is not None and note.other[0] == k else None
        per_block.setdefault(k, []).append((note.tag, note.site[1], other, note.data))
    notes: dict[Program, tuple[data.LocalNote, ...]] = {}
    seen: set[Program] = set()
    for k, block in enumerate(programs):
        if block is None or not block.program:
            continue
        found = tuple(per_block.get(k, ()))
        if block.program in seen:
            found = tuple(n for n in notes.get(block.program, ()) if n in found)
        seen.add(block.program)
        if found or block.program in notes:
            notes[block.program] = found
    constants = tuple(
        (name, value)
        for name, value in flow.constants()
        if model.final(name) == frozenset({v.Value(v.INT, const=value)})
    )
    if not notes and not graph and not eager and not constants:
        return data.EMPTY_INFO
    kept = {p: n for p, n in notes.items() if n}
    return data.DataModuleInfo(kept, frozenset(graph), frozenset(eager), constants)


def assert_as_fresh(texts: list[str]) -> None:
    """Type through ``texts`` in one analyzer; each state's tables and findings are those of a
    fresh analyzer."""
    warm = analyzer()
    for text in texts:
        reused = warm.analyze(text)
        fresh = analyzer().analyze(text)
        assert tables(reused.summary) == tables(fresh.summary), text
        assert fresh.summary is not None
        assert dict.get(fresh.summary.extra, data.FACT) == data_in_one_run(fresh.summary), text
        assert [signature(d) for d in reused.diagnostics] == [
            signature(d) for d in fresh.diagnostics
        ], text


SAVING = textwrap.dedent(
    """\
    import keras


    @keras.saving.register_keras_serializable()
    class Known(keras.layers.Layer):
        pass


    class Custom(keras.layers.Layer):
        pass


    def export(m, path="model.keras"):
        m.save(path)


    def unrelated(a):
        return a


    model = keras.Sequential([Custom()])
    other = keras.Sequential([Known()])
    unrelated(model)
    loaded = keras.saving.load_model("model.keras")
    """
)


@pytest.mark.parametrize(
    "statement",
    [
        "export(model)",  # a call site of a function whose parameter a save reads
        "export(other, path='other.keras')",
        "export(m=model)",
        "unrelated(other)",  # a call site no save reads
    ],
)
def test_saving_follows_new_call_sites(statement: str) -> None:
    assert_as_fresh(typing(SAVING, "other = keras.Sequential", statement))


def test_saving_follows_a_call_site_edited_in_place() -> None:
    base = SAVING.replace("unrelated(model)", "export(other)")
    texts = typing(base, "export(other)", "export(model)")
    # Then the first call is edited: its argument changes without moving the call.
    edited = texts[-1].replace("export(other)", "export(Custom)")
    assert_as_fresh([*texts, edited, edited.replace("export(Custom)", "export(other)")])


TENSORS = textwrap.dedent(
    """\
    import tensorflow as tf
    import keras

    net = keras.Sequential([keras.layers.Dense(3)])
    x = tf.zeros([4, 3])
    h = tf.ones([4])
    total = tf.reduce_sum(x)
    y = x / total
    s = tf.reduce_sum(h)
    z = h / s
    w = tf.reduce_sum(net(h))
    q = net(h) - w
    """
)


@pytest.mark.parametrize(
    ("after", "statement"),
    [
        ("h = tf.ones", "h = tf.matmul(x, x)"),  # a name's values change: h becomes a batch
        ("x = tf.zeros", "x = tf.zeros([4])"),  # and x stops being one
        ("import keras", "net = 3"),  # a Keras model name read through the model
        ("z = h / s", "s2 = h * tf.reduce_mean(h)"),  # a new broadcast pair
    ],
)
def test_module_tensors_follow_the_names_they_read(after: str, statement: str) -> None:
    assert_as_fresh(typing(TENSORS, after, statement))


DATA = textwrap.dedent(
    """\
    import tensorflow as tf


    def augment(x):
        return helper(x)


    def helper(x):
        return x


    ds = tf.data.Dataset.range(10).shuffle(10)
    a = ds.map(augment)
    b = ds.map(lambda v: v)
    pairs = tf.data.Dataset.zip((a, b))
    """
)


@pytest.mark.parametrize(
    ("after", "statement", "indent"),
    [
        ("def helper", "x = tf.random.uniform([3])", "    "),  # a function becomes random
        ("import tensorflow", "import random as tf", ""),  # the imports resolve otherwise
        ("b = ds.map", "augment = lambda v: tf.random.normal([1])", ""),
    ],
)
def test_data_randomness_follows_the_functions(after: str, statement: str, indent: str) -> None:
    assert_as_fresh(typing(DATA, after, statement, indent))


TRAINING = textwrap.dedent(
    """\
    import tensorflow as tf
    import keras
    import numpy as np

    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dropout(0.5)])
    model.compile(loss="mse")
    x = np.zeros((8, 3))
    model.fit(x, x)
    """
)


@pytest.mark.parametrize(
    ("after", "statement"),
    [
        ("import numpy", "tf.random.set_seed(0)"),  # a seed: nothing to report
        ("import numpy", "keras.utils.set_random_seed(1)"),
        ("x = np.zeros", "model = 3"),  # the training call is not a model's any more
        ("import keras", "from tensorflow import keras"),  # another module behind a name
    ],
)
def test_randomness_follows_seeds_and_models(after: str, statement: str) -> None:
    assert_as_fresh(typing(TRAINING, after, statement))


def test_randomness_follows_what_the_imports_make_of_a_seed() -> None:
    seeded = TRAINING.replace("model.fit(x, x)", "tf.random.set_seed(0)\nmodel.fit(x, x)")
    # ``tf`` becomes NumPy: the seed call no longer seeds TensorFlow.
    assert_as_fresh(typing(seeded, "import numpy", "import numpy as tf"))


KERAS = textwrap.dedent(
    """\
    import keras
    import tf_keras

    inputs = keras.Input((3,))
    dense = keras.layers.Dense(2)
    x = dense(inputs)
    legacy = tf_keras.layers.Dense(2)
    y = legacy(x)
    z = y
    """
)


@pytest.mark.parametrize(
    ("after", "statement"),
    [
        ("import tf_keras", "import tf_keras as keras"),  # the imports say otherwise
        ("dense = keras", "dense = tf_keras.layers.Dense(2)"),  # a name's flavour changes
        ("inputs = keras", "inputs = tf.zeros((3,))"),  # no longer symbolic, nor what follows
    ],
)
def test_keras_values_follow_the_names_before_them(after: str, statement: str) -> None:
    assert_as_fresh(typing(KERAS, after, statement))


STALE = textwrap.dedent(
    """\
    import tensorflow as tf

    scale = 2.0
    offset = 1.0


    @tf.function
    def step(x):
        return x * scale + offset


    step(1.0)
    offset = 0.5
    for i in range(3):
        step(2.0)
    step(3.0)
    """
)


@pytest.mark.parametrize(
    ("after", "statement", "indent"),
    [
        ("step(1.0)", "scale = 3.0", ""),  # rebound between two calls: stale
        ("step(3.0)", "scale = 4.0", ""),  # after the last call: not stale
        ("for i in range", "offset = i", "    "),  # in a loop that calls it
        ("offset = 0.5", "step = None", ""),  # the name called is rebound
        ("offset = 0.5", "step(0.0)", ""),  # a call moves the spans
    ],
)
def test_stale_globals_follow_bindings(after: str, statement: str, indent: str) -> None:
    assert_as_fresh(typing(STALE, after, statement, indent))


FLOW = textwrap.dedent(
    """\
    import tensorflow as tf

    ds = tf.data.Dataset.range(100).shuffle(100)
    train = ds.take(80)
    test = ds.skip(80)
    other = tf.data.Dataset.range(10).batch(2)
    other = other.shuffle(5)
    n = 2
    e = tf.data.Dataset.range(n).batch(4, drop_remainder=True)
    n = 8
    e = tf.data.Dataset.range(n).batch(4, drop_remainder=True)
    """
)


@pytest.mark.parametrize(
    ("after", "statement"),
    [
        ("ds = tf.data", "ds = ds.cache()"),  # a step in the middle of a chain of blocks
        ("train = ds", "test = other.skip(2)"),  # two groups of blocks meet
        ("other = other", "other = train"),  # and another one
        ("n = 8", "n = 2"),  # the same statement twice: both occurrences have the note
        ("import tensorflow", "tf = None"),  # nothing is a dataset any more
    ],
)
def test_dataset_flow_follows_the_names_between_blocks(after: str, statement: str) -> None:
    assert_as_fresh(typing(FLOW, after, statement))


OUTSIDE = textwrap.dedent(
    """\
    import keras


    class Unused(keras.layers.Layer):
        pass


    loaded = keras.saving.load_model("pretrained.keras")
    """
)


@pytest.mark.parametrize(
    "statement",
    [
        "layer = Unused()",  # a class used elsewhere: not there for the loaded file alone
        "keras.saving.save_model(loaded, 'pretrained.keras')",  # the file is written here
    ],
)
def test_saving_follows_what_mentions_a_class(statement: str) -> None:
    assert_as_fresh(typing(OUTSIDE, "    pass", statement))
