"""Hard cases for the parity patterns (TFL113-TFL115, TFL307, TFL606, TFL701-TFL703): the
checks other analyzers have, with aliases, indirect forms, Keras 2 vs 3, cross-block facts,
idiomatic code that must stay silent, and the off-by-default configuration."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import CATALOG, analyze, analyzer, lint
from tflsp.analysis.diagnostics import Diagnostic
from tflsp.analysis.fixes import apply_edits
from tflsp.catalog import LANGUAGES
from tflsp.settings import Settings


def found(source: str, code: str, target: str = "3") -> list[int]:
    """Lines where ``code`` fires when every rule is selected."""
    return [line for line, c in lint(source, "ALL", target) if c == code]


def diagnostics(source: str, code: str, target: str = "3") -> list[Diagnostic]:
    return [d for d in analyze(source, "ALL", target).diagnostics if d.code == code]


def variants(source: str, code: str, target: str = "3") -> list[str]:
    return [d.message_id for d in diagnostics(source, code, target)]


def fixed(source: str, code: str, target: str = "3") -> str:
    """``source`` after applying every fix of ``code``."""
    edits = [e for d in diagnostics(source, code, target) if d.fix is not None for e in d.fix.edits]
    return apply_edits(textwrap.dedent(source), edits)


def renders(diag: Diagnostic) -> None:
    owner = CATALOG[diag.code]
    for lang in LANGUAGES:
        owner.messages[diag.message_id][lang].format_map(dict(diag.args))
        if diag.fix is not None:
            owner.fix.title[lang].format_map(dict(diag.fix.args))


# -- TFL113 python-global-captured-in-graph ---------------------------------------------------
def test_tfl113_global_reassigned_after_the_function() -> None:
    source = """
        import tensorflow as tf
        scale = 1.0

        @tf.function
        def f(x):
            return x * scale + scale

        print(f(tf.constant(2.0)))
        scale = 10.0
        print(f(tf.constant(2.0)))
    """
    assert found(source, "TFL113") == [7]  # once per function and name
    (diag,) = diagnostics(source, "TFL113")
    assert diag.args == {"name": "scale", "function": "f"}
    renders(diag)
    # real-code-findings M2: a rebinding that no later call of the function sees is harmless.
    assert found(source.rpartition("print")[0], "TFL113") == []


def test_tfl113_a_redefinition_is_a_new_function() -> None:
    # real-code-findings M2: a notebook redefines the step per section, after rebinding the
    # model it reads; each definition is traced once, with the model of its own section.
    source = """
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def step(x):
            return model(x)

        step(tf.ones((1, 2)))
        model = tf.keras.Sequential([tf.keras.layers.Dense(3)])

        @tf.function
        def step(x):
            return model(x)

        step(tf.ones((1, 2)))
    """
    assert found(source, "TFL113") == []
    # The second definition called again after the model changes: stale.
    again = textwrap.dedent(source) + "model = None\nstep(tf.ones((1, 2)))\n"
    assert found(again, "TFL113") == [14]


def test_tfl113_decorator_arguments_are_read_once_at_definition() -> None:
    source = """
        import tensorflow as tf
        dim = 3

        @tf.function(input_signature=[tf.TensorSpec([None, dim])])
        def f(x):
            return x

        f(tf.ones((1, 3)))
        dim = 4
        f(tf.ones((1, 3)))
    """
    assert found(source, "TFL113") == []


def test_tfl113_globals_only_read_constants_and_early_configuration_are_silent() -> None:
    source = """
        import numpy as np
        import tensorflow as tf
        BATCH_SIZE = 32
        factor = 2.0
        mode = "train"
        if mode == "debug":
            factor = 1.0

        @tf.function
        def f(x):
            y = x * BATCH_SIZE * factor
            return tf.cast(np.pi, tf.float32) * y
    """
    assert found(source, "TFL113") == []


def test_tfl113_loop_targets_global_writers_and_keras_call() -> None:
    source = """
        import tensorflow as tf
        from tensorflow import keras
        offset = 0.0

        def set_offset(value):
            global offset
            offset = value

        class Shift(keras.layers.Layer):
            def call(self, x):
                return x + offset

        @tf.function
        def g(x):
            return x * rate

        for rate in (0.1, 0.01):
            print(g(tf.constant(1.0)))
    """
    assert found(source, "TFL113") == [12, 16]


def test_tfl113_global_created_once_by_a_guarded_initialiser() -> None:
    # Held-out keras-cv: a big lookup table starts as None and a loader fills it once
    # (`global T; if T is None: T = ...`) before it builds the pipeline whose traced parser
    # reads it.  The value goes from unset to set once and never changes after a trace.
    source = """
        import tensorflow as tf
        TABLE = None
        LIMIT = None

        def ensure_table():
            global TABLE
            if TABLE is None:
                TABLE = list(range(1024))
                TABLE = tf.constant(TABLE)
            return TABLE

        def set_limit(value):
            global LIMIT
            if LIMIT is None or value > 0:
                LIMIT = value

        @tf.function
        def lookup(ids):
            return tf.gather(TABLE, ids) + LIMIT

        def load(paths):
            ensure_table()
            return tf.data.Dataset.from_tensor_slices(paths).map(lookup)
    """
    # LIMIT is written whenever `value > 0`, not only while it is unset: still stale.
    assert [dict(d.args)["name"] for d in diagnostics(source, "TFL113")] == ["LIMIT"]
    # Once created, a module-level trace between two runs of the initialiser still sees it
    # change (the first trace froze None).
    traced = """
        import tensorflow as tf
        TABLE = None

        def ensure_table():
            global TABLE
            if TABLE is None:
                TABLE = tf.range(4)

        @tf.function
        def lookup(i):
            return TABLE if TABLE is not None else i

        lookup(tf.constant(1))
        ensure_table()
        lookup(tf.constant(1))
    """
    assert found(traced, "TFL113") == [12]


def test_tfl113_follows_an_edit_of_the_initialiser_guard() -> None:
    guarded = textwrap.dedent(
        """
        import tensorflow as tf
        TABLE = None

        def ensure_table(size):
            global TABLE
            if TABLE is None:
                TABLE = tf.range(size)

        @tf.function
        def lookup(ids):
            return tf.gather(TABLE, ids)
        """
    )
    always = guarded.replace("if TABLE is None:", "if size:")
    lint_ = analyzer("ALL")
    for source, lines in ((guarded, []), (always, [12]), (guarded, [])):
        assert [d.line for d in lint_.analyze(source).diagnostics if d.code == "TFL113"] == lines


def test_tfl113_writes_through_global_are_tfl103_and_comprehensions_are_local() -> None:
    source = """
        import tensorflow as tf
        calls = 0
        for i in range(3):
            pass

        @tf.function
        def f(x):
            global calls
            calls = calls + 1
            parts = [x * i for i in range(2)]
            return tf.add_n(parts)
    """
    assert found(source, "TFL113") == []
    assert found(source, "TFL103") == [10]


def test_tfl113_closures() -> None:
    source = """
        import tensorflow as tf

        def train(steps, momentum):
            rate = 0.5

            @tf.function
            def update(w):
                return w - rate * momentum

            w = tf.constant(1.0)
            for _ in range(steps):
                w = update(w)
                rate = rate / 2
            return w

        def counter():
            total = 0.0

            @tf.function
            def read(x):
                return x + total

            def bump():
                nonlocal total
                total += 1.0

            return read, bump

        def fixed(base):
            @tf.function
            def add(x):
                return x + base
            return add
    """
    assert found(source, "TFL113") == [9, 22]
    assert variants(source, "TFL113") == ["closure", "closure"]
    first = diagnostics(source, "TFL113")[0]
    assert first.args == {"name": "rate", "function": "train.update", "outer": "train"}
    renders(first)


def test_tfl113_closure_rebound_after_its_last_trace() -> None:
    # Only the calls of the function itself trace it; a binding after its last call matters
    # only when the function is handed out to be called again later.
    source = """
        import tensorflow as tf

        def evaluate(strategy, batches, layer):
            def batches_of():
                return iter(batches)

            @tf.function
            def step(x):
                return layer(x)

            first = step(next(batches_of()))
            layer = tf.keras.layers.Dense(3)
            rows = strategy.run(batches_of, args=(first,))
            dataset = tf.data.Dataset.range(3)
            dataset = dataset.map(lambda i: dataset.take(i))
            dataset = dataset.batch(2)
            return rows, dataset

        def make(scale):
            @tf.function
            def apply(x):
                return x * scale
            apply(tf.ones([1]))
            scale = scale * 2
            return apply
    """
    assert found(source, "TFL113") == [23]


def test_tfl113_functions_recreated_per_iteration_and_import_time_configuration() -> None:
    # The shapes of keras's FeatureSpace.adapt() and tf.data's readers.py.
    source = """
        import sys
        import tensorflow as tf

        def adapt(dataset, names):
            for name in names:
                column = dataset.map(lambda x: x[name])
                print(next(iter(column)))

        def make(files):
            def parse(line):
                return Reader(line)
            return tf.data.Dataset.from_tensor_slices(files).map(parse)

        def describe():
            return "readers"

        print(describe())
        if sys.version_info >= (3, 11):
            Reader = tf.strings.length
        else:
            Reader = tf.strings.upper
    """
    assert found(source, "TFL113") == []


def test_tfl113_traced_through_a_helper_called_at_module_level() -> None:
    source = """
        import tensorflow as tf
        threshold = 0.5

        @tf.function
        def keep(x):
            return x > threshold

        def report(x):
            print(keep(x))

        report(tf.constant(0.7))
        threshold = 0.9
        report(tf.constant(0.7))
    """
    assert found(source, "TFL113") == [7]


def test_tfl113_nested_function_inside_a_traced_function_is_silent() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def outer(x):
            acc = x
            def inner(y):
                return y + acc
            acc = acc * 2
            return inner(x)
    """
    assert found(source, "TFL113") == []


def test_tfl113_follows_edits_in_other_blocks() -> None:
    before = textwrap.dedent(
        """
        import tensorflow as tf
        scale = 1.0

        @tf.function
        def f(x):
            return x * scale

        print(f(tf.constant(1.0)))
        scale = 3.0
        print(f(tf.constant(1.0)))
        """
    )
    removed = before.replace("scale = 3.0", "print(scale)")
    no_call_first = before.replace("print(f(tf.constant(1.0)))", "print(scale)")
    lint_ = analyzer("ALL")
    assert [d.line for d in lint_.analyze(before).diagnostics if d.code == "TFL113"] == [7]
    assert [d.line for d in lint_.analyze(removed).diagnostics if d.code == "TFL113"] == []
    assert [d.line for d in lint_.analyze(no_call_first).diagnostics if d.code == "TFL113"] == []
    assert [d.line for d in lint_.analyze(before).diagnostics if d.code == "TFL113"] == [7]


def test_tfl113_rebinding_before_the_first_call_is_silent() -> None:
    # Nothing has been traced yet when the value changes (the shape of keras's own conv()).
    source = """
        import tensorflow as tf
        mode = "fast"

        @tf.function
        def f(x):
            return x if mode == "fast" else -x

        mode = "slow"
        print(f(tf.constant(1.0)))

        def conv(x, data_format=None):
            def body():
                return tf.identity(x) if data_format == "channels_last" else x

            @tf.function
            def compiled():
                return body()

            data_format = data_format or "channels_last"
            return compiled() if x.shape.rank == 5 else body()

        def make(rate):
            @tf.function
            def step(x):
                return x * rate

            rate = rate * 2
            return step
    """
    assert found(source, "TFL113") == []


# -- TFL114 recursive-tf-function ---------------------------------------------------------------
def test_tfl114_direct_mutual_and_longer_chains() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def fact(n):
            return 1 if n <= 1 else n * fact(n - 1)

        @tf.function
        def ping(n):
            return pong(n)

        def pong(n):
            return relay(n)

        def relay(n):
            return ping(n - 1)
    """
    assert found(source, "TFL114") == [6, 16]
    assert variants(source, "TFL114") == ["default", "mutual"]
    mutual = diagnostics(source, "TFL114")[1]
    assert mutual.args == {"function": "ping", "helper": "relay"}
    renders(mutual)


def test_tfl114_methods_and_aliases() -> None:
    source = """
        import tensorflow as tensorflow_alias
        from tensorflow import function as compiled

        class Walker:
            @tensorflow_alias.function
            def walk(self, n):
                return self.walk(n - 1)

        @compiled
        def again(n):
            return again(n)
    """
    assert found(source, "TFL114") == [8, 12]


def test_tfl114_non_recursive_code_is_silent() -> None:
    source = """
        import tensorflow as tf

        def python_fact(n):
            return 1 if n <= 1 else n * python_fact(n - 1)

        @tf.function
        def square(x):
            return x * x

        @tf.function
        def both(x):
            return square(x) + helper(x)

        def helper(x):
            return square(x)

        def driver(n):
            if n > 0:
                both(tf.constant(1.0))
                driver(n - 1)
    """
    assert found(source, "TFL114") == []


def test_tfl114_follows_the_helper_in_another_block() -> None:
    base = textwrap.dedent(
        """
        import tensorflow as tf

        @tf.function
        def ping(n):
            return pong(n)

        def pong(n):
            return ping(n - 1)
        """
    )
    lint_ = analyzer("ALL")
    assert [d.line for d in lint_.analyze(base).diagnostics if d.code == "TFL114"] == [9]
    edited = base.replace("return ping(n - 1)", "return n - 1")
    assert [d.line for d in lint_.analyze(edited).diagnostics if d.code == "TFL114"] == []


# -- TFL115 tensor-grown-in-loop --------------------------------------------------------------
def test_tfl115_eager_graph_and_keras_ops_growth() -> None:
    source = """
        import keras
        import tensorflow as tf
        from tensorflow import concat

        def eager(n):
            acc = tf.zeros([0])
            for i in range(n):
                acc = concat([acc, [float(i)]], axis=0)
            return acc

        @tf.function
        def graph(n):
            acc = tf.zeros([0, 2])
            i = tf.constant(0)
            while i < n:
                acc = tf.concat([acc, tf.ones([1, 2])], 0)
                i += 1
            return acc

        def stacked(xs):
            out = keras.ops.zeros((0, 3))
            for x in xs:
                out = keras.ops.concatenate([x[None], out])
            return out

        @tf.function
        def over_dataset(n):
            ds = tf.data.Dataset.range(n)
            rows = tf.zeros([0])
            for x in ds:
                rows = tf.experimental.numpy.append(rows, x)
            return rows
    """
    assert found(source, "TFL115") == [9, 17, 24, 32]
    assert variants(source, "TFL115") == ["default", "graph_loop", "default", "graph_loop"]
    for diag in diagnostics(source, "TFL115"):
        renders(diag)


def test_tfl115_tensor_arrays_resets_and_other_joins_are_silent() -> None:
    source = """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def squares(n):
            out = tf.TensorArray(tf.float32, size=n)
            for i in tf.range(n):
                out = out.write(i, tf.cast(i * i, tf.float32))
            return out.stack()

        def batches(xs):
            pieces = []
            total = np.zeros(0)
            for x in xs:
                row = tf.zeros([0])
                row = tf.concat([row, x], 0)
                pieces.append(row)
                both = tf.concat([x, x], 0)
                total = np.concatenate([total, x])
            else:
                both = tf.concat([both, both], 0)
            return tf.concat(pieces, 0), both, total

        acc = tf.zeros([0])
        acc = tf.concat([acc, [1.0]], 0)
    """
    assert found(source, "TFL115") == []


# -- TFL307 input-shape-on-subclassed-model -----------------------------------------------------
MODELS = """
    from tensorflow import keras

    class Net(keras.Model):
        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.dense = keras.layers.Dense(units)

    class Deeper(Net):
        pass

    class Plain(keras.Model):
        pass

    class OwnShape(keras.Model):
        def __init__(self, input_shape, **kwargs):
            super().__init__(**kwargs)
            self.shape_ = input_shape

    class Closed(keras.Model):
        def __init__(self, units):
            super().__init__()

    class Fixed(keras.Model):
        def __init__(self):
            super().__init__(input_dim=3, name="fixed")

    class Scale(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)

    a = Net(input_shape=(3,), name="a")
    b = Deeper(input_dim=3)
    c = Plain(input_shape=(3,))
    d = OwnShape(input_shape=(3,))
    e = Closed(input_shape=(3,))
    f = keras.layers.Dense(2, input_shape=(3,))
    g = Scale(input_shape=(3,))
"""


def test_tfl307_models_on_keras3_and_keras2() -> None:
    assert found(MODELS, "TFL307", "3") == [26, 32, 33, 34, 38]
    assert variants(MODELS, "TFL307", "3") == ["default"] * 4 + ["layer"]
    assert found(MODELS, "TFL307", "2") == [26, 32, 33, 34]
    assert variants(MODELS, "TFL307", "2") == ["keras2_model"] * 4
    for diag in diagnostics(MODELS, "TFL307", "3") + diagnostics(MODELS, "TFL307", "2"):
        renders(diag)


def test_tfl307_fix_removes_the_keyword_only_for_models() -> None:
    out = fixed(MODELS, "TFL307")
    ast.parse(out)
    assert 'super().__init__(name="fixed")' in out
    assert 'a = Net(name="a")' in out
    assert "b = Deeper()" in out and "c = Plain()" in out
    assert "g = Scale(input_shape=(3,))" in out  # a layer's shape can matter (Sequential)
    assert found(out, "TFL307") == [38]


def test_tfl307_super_init_reaching_an_own_init_that_takes_the_shape() -> None:
    # super().__init__(input_shape=...) in a subclass of the user's own class goes to that
    # class's __init__, which takes the shape as a parameter of its own: not Keras's business.
    source = """
        import keras

        class Backbone(keras.Model):
            def __init__(self, input_shape=(None, 3), **kwargs):
                x = keras.Input(input_shape)
                super().__init__(inputs=x, outputs=keras.layers.Dense(2)(x), **kwargs)

        class Small(Backbone):
            def __init__(self, **kwargs):
                super().__init__(input_shape=(None, 4), **kwargs)

        class Block(keras.layers.Layer):
            def __init__(self, units, **kwargs):
                super().__init__(**kwargs)
                self.units = units

        class Wide(Block):
            def __init__(self):
                super().__init__(8, input_shape=(3,))

        class Blocky(Block):
            pass

        class Wider(Blocky):
            def __init__(self):
                super().__init__(8, input_dim=3)
    """
    # Block forwards **kwargs to Keras's Layer.__init__: Wide and Wider still reach Keras.
    assert found(source, "TFL307") == [20, 27]


# -- TFL606 deprecated-argument -----------------------------------------------------------------
ARGUMENTS = """
    import tensorflow as tf
    from tensorflow import keras

    a = tf.gather([1, 2], [0], validate_indices=False)
    b = tf.function(lambda x: x, experimental_relax_shapes=True)
    c = tf.function(lambda x: x, experimental_relax_shapes=True, reduce_retracing=False)
    d = tf.function(lambda x: x, experimental_compile=True)
    e = tf.data.Dataset.from_generator(list, output_types=tf.int32, output_shapes=())
    f = keras.layers.Embedding(10, 4, input_length=5)
    g = keras.layers.LeakyReLU(alpha=0.2)
    h = keras.optimizers.SGD(learning_rate=0.1, decay=1e-4)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.save("m.keras", include_optimizer=False)
    model.save("m.h5", include_optimizer=False)
"""


def test_tfl606_both_versions_and_keras3_only_arguments() -> None:
    assert found(ARGUMENTS, "TFL606", "3") == [5, 6, 7, 8, 9, 10, 11, 12, 14]
    assert variants(ARGUMENTS, "TFL606", "3") == [
        "default",
        "renamed",
        "renamed",
        "renamed",
        "output_signature",
        "input_length",
        "renamed",
        "decay",
        "include_optimizer",
    ]
    # tf-keras honours input_length and alpha, and raises on decay= and on a .keras
    # save with include_optimizer=, so only the TensorFlow arguments are left.
    assert found(ARGUMENTS, "TFL606", "2") == [5, 6, 7, 8, 9]
    for diag in diagnostics(ARGUMENTS, "TFL606", "3"):
        renders(diag)


def test_tfl606_fixes_are_renames_and_removals() -> None:
    out = fixed(ARGUMENTS, "TFL606")
    ast.parse(out)
    assert "tf.gather([1, 2], [0])" in out
    assert "tf.function(lambda x: x, reduce_retracing=True)\n" in out
    # Both spellings given: renaming would pass reduce_retracing twice.
    assert "experimental_relax_shapes=True, reduce_retracing=False" in out
    assert "tf.function(lambda x: x, jit_compile=True)" in out
    assert "keras.layers.Embedding(10, 4)" in out
    assert "keras.layers.LeakyReLU(negative_slope=0.2)" in out
    assert "decay=1e-4" in out  # no automatic fix: the schedule has to be chosen
    assert [d.line for d in diagnostics(out, "TFL606") if d.fix is not None] == []
    assert found(out, "TFL606") == [7, 9, 12, 14]  # the findings without an automatic fix


def test_tfl606_decorator_and_follow_type_hints() -> None:
    source = """
        import tensorflow as tf

        @tf.function(experimental_follow_type_hints=True, jit_compile=False)
        def f(x: tf.Tensor):
            return x
    """
    assert found(source, "TFL606") == [4]
    assert variants(source, "TFL606") == ["follow_type_hints"]
    assert "@tf.function(jit_compile=False)" in fixed(source, "TFL606")
    alone = source.replace(", jit_compile=False", "")
    assert "@tf.function\ndef f" in fixed(alone, "TFL606")


def test_tfl606_leaves_failing_arguments_to_their_own_rules() -> None:
    source = """
        import numpy as np
        import torch
        from tensorflow import keras

        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.save("model.keras", save_format="keras")
        opt = keras.optimizers.Adam(lr=0.01)
        legacy = keras.optimizers.legacy.SGD(decay=0.1)
        idx = torch.gather(torch.zeros(2), 0, torch.zeros(1), validate_indices=True)
    """
    for target in ("3", "2"):
        assert found(source, "TFL606", target) == []
    assert found(source, "TFL404", "3") == [7]
    assert found(source, "TFL602", "3") == [8]


# -- TFL701 reduction-without-axis --------------------------------------------------------------
def test_tfl701_broadcast_back_against_the_batch() -> None:
    source = """
        import keras
        import tensorflow as tf

        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])

        def normalise(x):
            scores = model(x)
            return scores / tf.math.reduce_sum(scores)

        def center(w):
            m = tf.matmul(w, w, transpose_b=True)
            mean = keras.ops.mean(m)
            return m - mean

        grid = tf.random.uniform((4, 4))
        peak = tf.reduce_max(grid)
        scaled = tf.exp(grid) / peak
    """
    assert found(source, "TFL701") == [9, 13, 17]
    diag = diagnostics(source, "TFL701")[0]
    assert diag.args == {"call": "tf.math.reduce_sum", "value": "scores"}
    renders(diag)


def test_tfl701_losses_explicit_axes_and_unknown_ranks_are_silent() -> None:
    source = """
        import tensorflow as tf

        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        y = tf.constant([1.0, 2.0, 3.0])

        def loss(pred, target):
            return tf.reduce_mean(tf.square(pred - target))

        a = x / tf.reduce_sum(x, axis=-1, keepdims=True)
        b = x / tf.reduce_sum(x, axis=None)
        c = y / tf.reduce_sum(y)
        total = tf.reduce_sum(x)
        print(float(total))

        def unknown(t):
            return t / tf.reduce_sum(t)
    """
    assert found(source, "TFL701") == []


# -- TFL702 unseeded-randomness -----------------------------------------------------------------
TRAINING = """
    import numpy as np
    from tensorflow import keras

    np.random.seed(0)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.zeros((4, 1)), np.zeros((4, 1)), epochs=1)
"""


def test_tfl702_training_without_a_seed() -> None:
    assert found(TRAINING, "TFL702") == [8]
    (diag,) = diagnostics(TRAINING, "TFL702")
    assert diag.args["method"] == "model.fit"
    assert diag.args["sources"] == "fit(shuffle=True), weight initializers"
    renders(diag)


def test_tfl702_is_reported_once_per_file_at_the_first_training_call() -> None:
    source = (
        TRAINING
        + """
    def more(model):
        model.fit(np.zeros((4, 1)), np.zeros((4, 1)), epochs=1)
        model.train_on_batch(np.zeros((4, 1)), np.zeros((4, 1)))
    """
    )
    assert found(source, "TFL702") == [8]
    helper_first = """
        import numpy as np
        from tensorflow import keras

        def more(model):
            model.train_on_batch(np.zeros((4, 1)), np.zeros((4, 1)))
            model.fit(np.zeros((4, 1)), np.zeros((4, 1)), epochs=1)

        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        model.fit(np.zeros((4, 1)), np.zeros((4, 1)), epochs=1)
    """
    # The helper's ``model`` is a parameter: nothing says it is a Keras model (its name used
    # to), so the first call known to train one is the module's.
    assert found(helper_first, "TFL702") == [10]


@pytest.mark.parametrize(
    "seed",
    [
        "keras.utils.set_random_seed(1)",
        "import tensorflow as tf\ntf.random.set_seed(1)",
        "from utils import seed_everything\nseed_everything(1)",
    ],
)
def test_tfl702_any_seed_anywhere_silences_it(seed: str) -> None:
    assert found(TRAINING + "\n" + seed + "\n", "TFL702") == []


def test_tfl702_custom_loops_and_non_training_fits() -> None:
    source = """
        import tensorflow as tf
        from sklearn.preprocessing import StandardScaler

        scaler = StandardScaler()
        scaler.fit([[1.0], [2.0]])
        w = tf.Variable(tf.random.normal((3, 1)))
        opt = tf.keras.optimizers.SGD(0.1)
        for step in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
    """
    assert found(source, "TFL702") == [12]
    quiet = """
        import tensorflow as tf
        from tensorflow import keras

        model = keras.saving.load_model("trained.keras")
        model.fit(train_ds, epochs=1)
    """
    assert found(quiet, "TFL702") == []


# -- TFL703 models-built-in-loop ----------------------------------------------------------------
def test_tfl703_builders_direct_models_and_subclasses() -> None:
    source = """
        from tensorflow import keras

        class Net(keras.Model):
            pass

        def build(units):
            return keras.Sequential([keras.Input((4,)), keras.layers.Dense(units)])

        def evaluate(units):
            model = build(units)
            return model.count_params()

        scores = []
        for units in (8, 16):
            scores.append(evaluate(units))
            net = Net()
            layer = keras.layers.Dense(units)

        for fold in range(3):
            model = keras.Sequential([keras.layers.Dense(1)])
    """
    assert found(source, "TFL703") == [16, 17, 21]
    diag = diagnostics(source, "TFL703")[0]
    assert diag.args == {"call": "evaluate"}
    renders(diag)


def test_tfl703_clear_session_in_the_loop_or_the_builder() -> None:
    source = """
        import tensorflow as tf
        from tensorflow import keras

        def build(units):
            keras.backend.clear_session()
            return keras.Sequential([keras.Input((4,)), keras.layers.Dense(units)])

        for units in (8, 16):
            model = build(units)

        while True:
            tf.keras.backend.clear_session()
            model = keras.Sequential([keras.layers.Dense(1)])
            break

        models = [keras.Sequential([keras.layers.Dense(1)]) for _ in range(3)]
        single = build(4)
    """
    assert found(source, "TFL703") == []


# -- TFL704 log-of-softmax ----------------------------------------------------------------------
def test_tfl704_inline_names_and_keras_ops() -> None:
    source = """
        import keras
        import tensorflow as tf
        from keras import ops

        def loss(labels, logits):
            p = tf.nn.softmax(logits, axis=-1)
            return -tf.reduce_sum(labels * tf.math.log(p), axis=-1)

        a = tf.math.log(tf.nn.softmax(tf.ones((2, 3)), axis=-1))
        b = ops.log(ops.sigmoid(tf.ones(3)))
        c = keras.ops.log(keras.activations.softmax(tf.ones((2, 3))))
    """
    assert found(source, "TFL704") == [8, 10, 11, 12]
    assert variants(source, "TFL704") == ["default", "default", "sigmoid", "default"]
    out = fixed(source, "TFL704")
    ast.parse(out)
    assert "a = tf.nn.log_softmax(tf.ones((2, 3)), axis=-1)" in out
    assert "b = ops.log_sigmoid(tf.ones(3))" in out
    assert "c = ops.log_softmax(tf.ones((2, 3)))" in out  # the file's own keras.ops alias
    assert "tf.math.log(p)" in out  # through a name: no automatic rewrite
    for diag in diagnostics(source, "TFL704"):
        renders(diag)


def test_tfl704_guarded_and_unrelated_logs_are_silent() -> None:
    source = """
        import math
        import numpy as np
        import tensorflow as tf

        p = tf.nn.softmax(tf.ones((2, 3)))
        a = tf.math.log(p + 1e-7)
        b = tf.math.log(tf.clip_by_value(p, 1e-7, 1.0))
        c = np.log(p)
        d = math.log(2.0)
        e = tf.nn.log_softmax(tf.ones((2, 3)))
        q = tf.nn.softmax(tf.ones(3))
        q = tf.ones(3)
        f = tf.math.log(q)
    """
    assert found(source, "TFL704") == []


def test_tfl704_keras2_keeps_keras_ops_unfixed() -> None:
    source = """
        import tensorflow as tf
        a = tf.math.log(tf.keras.activations.softmax(tf.ones((2, 3))))
    """
    assert found(source, "TFL704", "2") == [3]
    assert [d.fix for d in diagnostics(source, "TFL704", "2")] == [None]


# -- configuration: off by default, on when selected ----------------------------------------
OFF = ("TFL701", "TFL702", "TFL703", "TFL704")
ON = ("TFL113", "TFL114", "TFL115", "TFL307", "TFL606")


def test_off_by_default_in_the_catalog_and_the_settings() -> None:
    for code in OFF:
        assert not CATALOG[code].default_enabled
    for code in ON:
        assert CATALOG[code].default_enabled
    default = Settings().enabled_codes(CATALOG)
    assert default.isdisjoint(OFF) and default.issuperset(ON)
    assert Settings(extend_select=("TFL701",)).enabled_codes(CATALOG) >= default | {"TFL701"}
    assert Settings(extend_select=("TFL70",)).enabled_codes(CATALOG).issuperset(OFF)
    assert Settings(select=("ALL",)).enabled_codes(CATALOG).issuperset(OFF)
    assert Settings(select=("TFL7",)).enabled_codes(CATALOG).issuperset(OFF)
    everything_but = Settings(select=("ALL",), ignore=("TFL702",)).enabled_codes(CATALOG)
    assert "TFL702" not in everything_but and "TFL701" in everything_but


BOTH = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

scores = tf.constant([[1.0, 2.0], [3.0, 4.0]])
shares = scores / tf.reduce_sum(scores)
for units in (4, 8):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(units)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.zeros((4, 2)), np.zeros((4, units)), verbose=0)
"""


def _check(cwd: Path, *args: str) -> list[str]:
    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("TF_USE_LEGACY_KERAS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return sorted(r["code"] for r in json.loads(proc.stdout))


def test_off_by_default_through_the_real_cli(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(BOTH)
    assert _check(tmp_path, "--isolated", "train.py") == []
    assert _check(tmp_path, "--isolated", "--extend-select", "TFL701", "train.py") == ["TFL701"]
    assert _check(tmp_path, "--isolated", "--select", "ALL", "train.py") == [
        "TFL701",
        "TFL702",
        "TFL703",
    ]
    (tmp_path / "pyproject.toml").write_text('[tool.tflsp]\nselect = ["ALL"]\n')
    assert _check(tmp_path, "train.py") == ["TFL701", "TFL702", "TFL703"]
    (tmp_path / "pyproject.toml").write_text('[tool.tflsp]\nextend-select = ["TFL703"]\n')
    assert _check(tmp_path, "train.py") == ["TFL703"]
    assert _check(tmp_path, "--extend-select", "TFL702", "train.py") == ["TFL702", "TFL703"]


def test_rules_listing_marks_them_off() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tflsp", "rules", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8"},
    )
    records = {r["code"]: r for r in json.loads(proc.stdout)}
    assert [records[c]["default"] for c in OFF] == [False] * len(OFF)
    assert [records[c]["default"] for c in ON] == [True] * len(ON)


# -- caching: facts must not depend on line numbers --------------------------------------------
PARITY_FACTS = (
    "tracking.shape_keywords",
    "practice.module_tensors",
    "practice.randomness",
    "practice.model_builders",
)
SHIFTABLE = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

scale = 1.0


@tf.function
def step(x):
    return x * scale + step_back(x)


def step_back(x):
    return step(x - 1)


def train():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.fit(np.zeros((4, 2)), np.zeros((4, 1)))
    return model


print(step(tf.constant(1.0)))
scale = 2.0
print(step(tf.constant(1.0)))
for units in (1, 2):
    train()
"""


def test_module_facts_ignore_lines_that_only_move() -> None:
    """An edit that only shifts lines inside a function keeps every parity fact (and therefore
    every other block's cached findings) unchanged."""
    shifted = SHIFTABLE.replace(
        "    model = keras.Sequential", "    # a comment\n\n    model = keras.Sequential"
    )
    before = analyzer("ALL").analyze(SHIFTABLE).summary
    after = analyzer("ALL").analyze(shifted).summary
    assert before is not None and after is not None
    for key in PARITY_FACTS:
        assert before.extra[key] == after.extra[key], key
    assert dict(before.stale_globals) == dict(after.stale_globals)
    assert dict(before.recursion) == dict(after.recursion)
    assert before.core_fingerprint == after.core_fingerprint
    assert before.extra["practice.randomness"] is not None
    assert dict(before.recursion) and dict(before.stale_globals)
