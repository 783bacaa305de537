"""tf.data family (TFL201-TFL205): hard cases, Keras 2/3 targeting and code that must pass."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyze, analyzer, lint
from tflsp.analysis.fixes import apply_edits

DATA = ("TFL201", "TFL202", "TFL203", "TFL204", "TFL205")


def found(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, DATA, target) if c == code]


def fixed(source: str, code: str) -> str:
    """The source after applying the fix of the (single) ``code`` diagnostic."""
    text = textwrap.dedent(source)
    diagnostics = [d for d in analyze(source, DATA).diagnostics if d.code == code]
    assert len(diagnostics) == 1 and diagnostics[0].fix is not None
    return apply_edits(text, diagnostics[0].fix.edits)


# -- TFL201 python-in-dataset-map ------------------------------------------------------------
def test_python_library_on_element_in_named_map_function() -> None:
    assert found(
        """
        import json
        import tensorflow as tf

        def parse(record):
            return json.loads(record)["label"]

        ds = tf.data.Dataset.from_tensor_slices(["{}"]).map(parse)
    """,
        "TFL201",
    ) == [6]


def test_python_library_in_lambda_and_aliases() -> None:
    assert found(
        """
        import numpy as onp
        import tensorflow as tf
        from PIL import Image

        files = tf.data.Dataset.list_files("*.npy")
        arrays = files.map(lambda p: onp.load(p))
        images = files.map(map_func=lambda p: Image.open(p))
    """,
        "TFL201",
    ) == [7, 8]


def test_values_derived_from_elements_and_helpers_called_from_map() -> None:
    assert found(
        """
        import cv2
        import tensorflow as tf

        def read(path):
            return open(path).read()

        def load(name, label):
            path = tf.strings.join(["images/", name])
            image = cv2.imread(path)
            return read(path), label

        ds = tf.data.Dataset.from_tensor_slices((["a"], [0])).map(load)
    """,
        "TFL201",
    ) == [6, 10]


def test_only_the_first_python_call_of_a_chain_is_reported() -> None:
    assert found(
        """
        import json
        import tensorflow as tf

        def parse(path):
            with open(path) as f:
                data = json.load(f)
            text = json.dumps(data)
            return text

        ds = tf.data.Dataset.from_tensor_slices(["a.json"]).map(parse)
    """,
        "TFL201",
    ) == [6]


def test_python_code_wrapped_in_py_function_or_on_static_values_is_fine() -> None:
    assert (
        found(
            """
        import json
        import numpy as np
        import tensorflow as tf

        def parse_python(record):
            return np.float32(json.loads(record.numpy())["label"])

        def parse(record):
            label = tf.py_function(parse_python, [record], Tout=tf.float32)
            scale = np.float32(0.5) * np.ones(record.shape[0])
            return tf.ensure_shape(label, []), scale

        def numpy_wrapped(path):
            return tf.numpy_function(np.load, [path], tf.float32)

        ds = tf.data.Dataset.from_tensor_slices(["{}"]).map(parse)
        other = tf.data.Dataset.from_tensor_slices(["a.npy"]).map(numpy_wrapped)
        eager = tf.data.Dataset.from_tensor_slices(["a.npy"]).map(
            lambda p: tf.py_function(lambda q: np.load(q.numpy()), [p], tf.float32)
        )
        config = json.loads(open("config.json").read())
    """,
            "TFL201",
        )
        == []
    )


def test_map_that_is_not_a_dataset_and_generators_are_not_checked() -> None:
    assert (
        found(
            """
        import json
        import pandas as pd
        import tensorflow as tf

        frame = pd.DataFrame({"a": ["{}"]})
        parsed = frame["a"].map(lambda s: json.loads(s))

        def rows():
            for line in open("data.jsonl"):
                yield json.loads(line)["x"]

        ds = tf.data.Dataset.from_generator(rows, output_signature=tf.TensorSpec((), tf.float32))
    """,
            "TFL201",
        )
        == []
    )


# -- TFL202 batch-before-shuffle -------------------------------------------------------------
def test_batch_then_shuffle_in_one_chain_has_a_swap_fix() -> None:
    source = """
        import tensorflow as tf
        ds = tf.data.Dataset.range(12).batch(4).shuffle(3, seed=7)
    """
    assert found(source, "TFL202") == [3]
    assert "range(12).shuffle(3, seed=7).batch(4)" in fixed(source, "TFL202")


def test_batch_then_shuffle_across_module_level_reassignments() -> None:
    # Each module-level statement is its own block: the flow crosses blocks.
    source = """
        import tensorflow as tf
        ds = tf.data.Dataset.range(100)
        ds = ds.batch(4)
        print("batched")
        ds = ds.shuffle(10)
    """
    assert found(source, "TFL202") == [6]
    [diag] = [d for d in analyze(source, DATA).diagnostics if d.code == "TFL202"]
    assert diag.fix is None  # the batch call lives in another block


def test_adjacent_reassignments_in_a_function_are_swapped() -> None:
    source = """
        def pipeline(ds):
            ds = ds.map(lambda x: x + 1)
            ds = ds.batch(32)
            ds = ds.shuffle(1000)
            return ds.prefetch(2)
    """
    assert found(source, "TFL202") == [5]
    after = fixed(source, "TFL202")
    assert "ds = ds.shuffle(1000)\n    ds = ds.batch(32)" in after
    assert found(after, "TFL202") == []


def test_multiline_chain_swap_keeps_valid_code() -> None:
    source = """
        import tensorflow as tf
        ds = (
            tf.data.Dataset.range(10)
            .batch(2)
            .shuffle(5)
        )
    """
    after = fixed(source, "TFL202")
    compile(after, "<fixed>", "exec")
    assert found(after, "TFL202") == []


@pytest.mark.parametrize(
    "body",
    [
        "ds = ds.shuffle(100).batch(4)",
        "ds = ds.batch(4).unbatch().shuffle(100)",
        "ds = ds.batch(4) if big else ds\nds = ds.shuffle(10)",
        "if big:\n    ds = ds.batch(4)\nds = ds.shuffle(10)",
    ],
)
def test_no_batch_before_shuffle(body: str) -> None:
    source = "import tensorflow as tf\nbig = True\nds = tf.data.Dataset.range(8)\n" + body + "\n"
    assert found(source, "TFL202") == []


def test_padded_batch_and_intervening_steps_still_count() -> None:
    source = """
        import tensorflow as tf
        def make(ds):
            ds = ds.padded_batch(8)
            ds = ds.map(lambda x: x)
            return ds.shuffle(4)
    """
    assert found(source, "TFL202") == [6]
    [diag] = [d for d in analyze(source, DATA).diagnostics if d.code == "TFL202"]
    assert diag.fix is None  # map() runs between the two: swapping would change it
    assert diag.args["batch"] == "padded_batch"


# -- TFL203 shuffle-split-leak ---------------------------------------------------------------
def test_shuffle_then_take_and_skip_flags_the_shuffle_with_a_fix() -> None:
    source = """
        import tensorflow as tf
        N = 100
        ds = tf.data.Dataset.range(N).shuffle(N, seed=1)
        test = ds.take(20)
        train = ds.skip(20)
    """
    assert found(source, "TFL203") == [4]
    after = fixed(source, "TFL203")
    assert "shuffle(N, seed=1, reshuffle_each_iteration=False)" in after
    assert found(after, "TFL203") == []


def test_split_through_batching_and_inside_functions() -> None:
    source = """
        import tensorflow as tf
        def split(ds, n):
            ds = ds.shuffle(1000, reshuffle_each_iteration=True).batch(32)
            val = ds.take(n)
            return ds.skip(n), val
    """
    assert found(source, "TFL203") == [4]
    assert "reshuffle_each_iteration=False).batch(32)" in fixed(source, "TFL203")


@pytest.mark.parametrize(
    "shuffle",
    [
        "ds.shuffle(100, reshuffle_each_iteration=False)",
        "ds.shuffle(100, reshuffle_each_iteration=flag)",
        "ds",
    ],
)
def test_stable_or_unknown_order_is_not_a_leak(shuffle: str) -> None:
    source = f"""
        import tensorflow as tf
        flag = False
        ds = tf.data.Dataset.range(100)
        ds = {shuffle}
        test = ds.take(20)
        train = ds.skip(20).shuffle(80)
    """
    assert found(source, "TFL203") == []


def test_take_alone_is_not_a_split() -> None:
    source = """
        import tensorflow as tf
        ds = tf.data.Dataset.range(100).shuffle(100)
        for x in ds.take(3):
            print(x)
    """
    assert found(source, "TFL203") == []


# -- TFL204 shuffled-dataset-split-into-streams ----------------------------------------------
def test_two_maps_of_one_shuffled_dataset_zipped_back() -> None:
    source = """
        import tensorflow as tf
        pairs = tf.data.Dataset.range(10).map(lambda i: (i, i * 100))
        shuffled = pairs.shuffle(10, seed=3)
        x = shuffled.map(lambda a, b: a)
        y = shuffled.map(lambda a, b: b)
        zipped = tf.data.Dataset.zip((x, y))
        for a, b in zip(x, y):
            pass
    """
    assert found(source, "TFL204") == [7, 8]
    [first, _] = [d for d in analyze(source, DATA).diagnostics if d.code == "TFL204"]
    assert first.args["streams"] == "`x` and `y`"
    assert first.message_id == "default"


def test_streams_inside_a_function_and_after_further_steps() -> None:
    source = """
        import tensorflow as tf
        def make(x, y):
            ds = tf.data.Dataset.from_tensor_slices((x, y))
            ds = ds.shuffle(100)
            images = ds.map(lambda a, b: a).batch(8)
            labels = ds.map(lambda a, b: b).batch(8)
            return tf.data.Dataset.zip(images, labels)
    """
    assert found(source, "TFL204") == [8]
    # A parameter's name says nothing: ``ds`` might be any object with map() and shuffle().
    guessed = source.replace("ds = tf.data.Dataset.from_tensor_slices((x, y))", "ds = x")
    assert found(guessed, "TFL204") == []


@pytest.mark.parametrize(
    "pipeline",
    [
        # zip first, shuffle the pairs
        "x = pairs.map(lambda a, b: a)\ny = pairs.map(lambda a, b: b)\n"
        "z = tf.data.Dataset.zip((x, y)).shuffle(10)",
        # a fixed order
        "s = pairs.shuffle(10, reshuffle_each_iteration=False)\n"
        "z = tf.data.Dataset.zip((s.map(lambda a, b: a), s.map(lambda a, b: b)))",
        # unrelated datasets
        "x = tf.data.Dataset.range(4).shuffle(4)\ny = tf.data.Dataset.range(4)\n"
        "z = tf.data.Dataset.zip((x, y))",
        # one stream only
        "s = pairs.shuffle(10)\nz = tf.data.Dataset.zip((s, labels))",
    ],
)
def test_paired_streams_are_fine(pipeline: str) -> None:
    source = (
        "import tensorflow as tf\nlabels = load_labels()\n"
        "pairs = tf.data.Dataset.range(10).map(lambda i: (i, i))\n" + pipeline + "\n"
    )
    assert found(source, "TFL204") == []


def test_random_augmentation_upstream_of_the_split() -> None:
    source = """
        import random
        import tensorflow as tf

        def jitter(i):
            return i + tf.random.uniform([], maxval=5, dtype=tf.int64), i

        def pick():
            n = random.randint(0, 10)
            return n, 10 - n

        def map_func(_):
            return tf.py_function(func=pick, inp=[], Tout=[tf.int32, tf.int32])

        a = tf.data.Dataset.range(5).map(jitter)
        za = tf.data.Dataset.zip((a.map(lambda x, y: x), a.map(lambda x, y: y)))
        b = tf.data.Dataset.range(5).map(map_func)
        x = b.map(lambda p, q: p)
        y = b.map(lambda p, q: q)
        zb = zip(x, y)
    """
    assert found(source, "TFL204") == [16, 20]
    variants = {d.message_id for d in analyze(source, DATA).diagnostics if d.code == "TFL204"}
    assert variants == {"random_map"}


def test_trace_time_python_random_and_stateless_ops_are_not_random_per_element() -> None:
    source = """
        import random
        import tensorflow as tf

        def constant_at_trace(i):
            return i + random.randint(0, 3), i

        def stateless(i):
            return i + tf.random.stateless_uniform([], seed=[1, 2], maxval=3, dtype=tf.int64), i

        for fn in (constant_at_trace, stateless):
            pass
        a = tf.data.Dataset.range(5).map(constant_at_trace)
        za = tf.data.Dataset.zip((a.map(lambda x, y: x), a.map(lambda x, y: y)))
        b = tf.data.Dataset.range(5).map(stateless)
        zb = tf.data.Dataset.zip((b.map(lambda x, y: x), b.map(lambda x, y: y)))
    """
    assert found(source, "TFL204") == []


# -- TFL205 drop-remainder-empty -------------------------------------------------------------
@pytest.mark.parametrize(
    ("pipeline", "size"),
    [
        ("tf.data.Dataset.range(5).batch(8, drop_remainder=True)", 5),
        ("tf.data.Dataset.from_tensor_slices([1, 2, 3]).batch(4, True)", 3),
        (
            "tf.data.Dataset.from_tensor_slices(np.zeros((10, 3))).batch(32, drop_remainder=True)",
            10,
        ),
        ("tf.data.Dataset.range(1000).take(3).batch(4, drop_remainder=True)", 3),
        ("tf.data.Dataset.range(10).skip(8).batch(4, drop_remainder=True)", 2),
        ("tf.data.Dataset.range(10).filter(lambda x: x > 2).batch(16, drop_remainder=True)", 10),
        ("tf.data.Dataset.range(2, 8, 2).padded_batch(4, drop_remainder=True)", 3),
    ],
)
def test_batches_larger_than_the_dataset(pipeline: str, size: int) -> None:
    source = f"import numpy as np\nimport tensorflow as tf\nds = {pipeline}\n"
    [diag] = [d for d in analyze(source, DATA).diagnostics if d.code == "TFL205"]
    assert diag.line == 3
    assert diag.args["size"] == str(size)


def test_sizes_flow_through_array_names_and_reassignments() -> None:
    source = """
        import numpy as np
        import tensorflow as tf
        features = np.random.rand(5, 3).astype("float32")
        labels = np.arange(5)
        ds = tf.data.Dataset.from_tensor_slices((features, labels))
        ds = ds.shuffle(5)
        ds = ds.batch(8, drop_remainder=True)
    """
    assert found(source, "TFL205") == [8]
    assert "drop_remainder=False" in fixed(source, "TFL205")


def test_int_constants_for_sizes_and_batch_sizes() -> None:
    source = """
        import tensorflow as tf
        BATCH_SIZE = 32
        N = 10
        ds = tf.data.Dataset.range(N).batch(BATCH_SIZE, drop_remainder=True)

        def make():
            return tf.data.Dataset.range(N).batch(BATCH_SIZE, drop_remainder=True)

        def local(n):
            size = 4
            return tf.data.Dataset.range(n).take(size).batch(BATCH_SIZE, drop_remainder=True)
    """
    assert found(source, "TFL205") == [5, 8, 12]
    # A module name bound twice is no constant inside functions (N = 100 at module level).
    reassigned = source.replace("N = 10", "N = 10\n        N = 100")
    assert found(reassigned, "TFL205") == [13]


def test_keras2_message_names_the_value_error() -> None:
    source = (
        "import tensorflow as tf\nds = tf.data.Dataset.range(3).batch(4, drop_remainder=True)\n"
    )
    [k3] = analyze(source, DATA, "3").diagnostics
    [k2] = analyze(source, DATA, "2").diagnostics
    assert (k3.message_id, k2.message_id) == ("default", "keras2")


@pytest.mark.parametrize(
    "pipeline",
    [
        "tf.data.Dataset.range(64).batch(8, drop_remainder=True)",
        "tf.data.Dataset.range(5).repeat().batch(8, drop_remainder=True)",
        "tf.data.Dataset.range(5).batch(8, drop_remainder=flag)",
        "tf.data.Dataset.range(5).batch(8)",
        "tf.data.Dataset.from_tensor_slices(data).batch(8, drop_remainder=True)",
        "tf.data.Dataset.range(5).batch(size, drop_remainder=True)",
    ],
)
def test_batches_that_can_be_filled_or_unknown_sizes(pipeline: str) -> None:
    source = f"import tensorflow as tf\nflag = size = data = None\nds = {pipeline}\n"
    assert found(source, "TFL205") == []


# -- flow engine behaviour -------------------------------------------------------------------
def test_editing_an_earlier_block_updates_a_later_one() -> None:
    lint_ = analyzer(DATA)
    before = "import tensorflow as tf\nds = tf.data.Dataset.range(9)\nds = ds.batch(3)\nds = ds.shuffle(3)\n"
    after = before.replace("ds = ds.batch(3)", "ds = ds.map(lambda x: x)")
    assert [d.code for d in lint_.analyze(before).diagnostics] == ["TFL202"]
    assert [d.code for d in lint_.analyze(after).diagnostics] == []
    assert [d.code for d in lint_.analyze(before).diagnostics] == ["TFL202"]


def test_name_rebound_to_something_else_forgets_the_dataset() -> None:
    source = """
        import tensorflow as tf
        ds = tf.data.Dataset.range(9).batch(3)
        ds = make_dataset()
        ds = ds.shuffle(3)
    """
    assert found(source, "TFL202") == []


def test_identical_statements_in_different_states_are_not_guessed() -> None:
    # The same text twice: once after batch(), once not.  Findings are cached per text, so
    # only what holds for both may be reported.
    source = """
        import tensorflow as tf
        ds = tf.data.Dataset.range(9)
        ds = ds.shuffle(3)
        ds = tf.data.Dataset.range(9).batch(3)
        ds = ds.shuffle(3)
    """
    assert found(source, "TFL202") == []


ODD_CODE = [
    "ds = tf.data.Dataset.range().batch().shuffle()\n",
    "x = tf.data.Dataset.zip()\ny = zip()\nz = tf.data.Dataset.zip(datasets=[a])\n",
    "ds = tf.data.Dataset.range(-5).batch(-1, drop_remainder=True).take(-1).skip(-3)\n",
    "ds = tf.data.Dataset.range(3, 1, 0)\n",
    "a, *b = tf.data.Dataset.range(3), 1\n(c := tf.data.Dataset.range(2).batch(5, True))\n",
    "ds = ds.map(*fns).map(**kw).shuffle(*args).batch(**opts)\n",
    "def f():\n    global ds\n    ds = ds.batch(2)\n    del ds\n",
    "ds = tf.data.Dataset.range(3)\n" + "ds = ds.map(lambda x: x)\n" * 50 + "ds.shuffle(2)\n",
    "x = (" * 60 + "tf.data.Dataset.range(3)" + ")" * 60 + ".batch(9, True)\n",
    "match ds:\n    case _:\n        ds = ds.batch(2)\ntry:\n    ds = ds.shuffle(2)\nexcept* ValueError:\n    pass\n",
]


@pytest.mark.parametrize("body", ODD_CODE)
def test_odd_code_does_not_crash_the_detectors(body: str) -> None:
    lint("import tensorflow as tf\n" + body, DATA)  # strict mode re-raises detector crashes


def test_tfl202_batching_a_stream_into_sequences_before_the_real_batch() -> None:
    # real-code-findings M8: a character stream is cut into sequences with batch(), the
    # sequences are shuffled and batched for training.
    source = """
        import tensorflow as tf
        chars = tf.data.Dataset.from_tensor_slices(tf.range(1000))
        sequences = chars.batch(101, drop_remainder=True)
        dataset = sequences.shuffle(100).batch(8, drop_remainder=True)
    """
    assert lint(source, "TFL202") == []
    assert [
        line for line, _ in lint(source.replace(".batch(8, drop_remainder=True)", ""), "TFL202")
    ] == [5]
