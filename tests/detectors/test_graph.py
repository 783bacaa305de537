"""Hard cases for the graph/eager family TFL103-TFL112: aliases, indirect forms, Keras 2 vs 3,
and idiomatic code that must stay silent."""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.helpers import CATALOG, analyze, analyzer, lint
from tflsp.analysis.diagnostics import Diagnostic
from tflsp.analysis.fixes import apply_edits
from tflsp.catalog import LANGUAGES


def found(source: str, code: str, target: str = "3") -> list[int]:
    """Lines where ``code`` fires when every rule is selected."""
    return [line for line, c in lint(source, "ALL", target) if c == code]


def diagnostics(source: str, code: str, target: str = "3") -> list[Diagnostic]:
    return [d for d in analyze(source, "ALL", target).diagnostics if d.code == code]


def fixed(source: str, code: str, target: str = "3") -> str:
    """``source`` after applying the fix of the single ``code`` diagnostic."""
    (diag,) = diagnostics(source, code, target)
    assert diag.fix is not None
    return apply_edits(textwrap.dedent(source), diag.fix.edits)


# -- TFL103 python-side-effect-in-graph ------------------------------------------------------
def test_tfl103_outside_list_global_and_file_writes() -> None:
    source = """
        import tensorflow as tf
        log = []
        cache = {}
        calls = 0

        @tf.function
        def step(x):
            global calls
            calls += 1
            log.append(x)
            cache["last"] = x
            with open("trace.txt", "a") as fh:
                fh.write("traced")
            return x
    """
    assert found(source, "TFL103") == [10, 11, 12, 13]
    ids = [d.message_id for d in diagnostics(source, "TFL103")]
    assert ids == ["global", "default", "store", "file"]


def test_tfl103_items_of_a_container_made_once_on_the_first_trace() -> None:
    """Sonnet's tests fill a one-item list on the first trace only (``if not cell[0]:``,
    ``if slots[0] is None:``): made once, on purpose.  An unguarded append still counts."""
    source = """
        import tensorflow as tf

        def build(factory):
            cell = [None]
            slots = [None, None]
            log = []

            @tf.function
            def step(x):
                if not cell[0]:
                    cell[0] = factory()
                if slots[0] is None:
                    slots[0] = tf.Variable(1.0)
                    slots[1] = tf.Variable(2.0)
                log.append(x)
                return cell[0](x)

            return step
    """
    assert found(source, "TFL103") == [16]


def test_tfl103_lists_built_during_the_trace_are_local() -> None:
    source = """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def step(x):
            parts = []
            def add(v):
                parts.append(v)
            add(x)
            parts.extend([x, x])
            table = {}
            table["x"] = x
            arr = np.append(np.zeros(2), 1.0)
            return tf.stack(parts)
    """
    assert found(source, "TFL103") == []


def test_tfl103_self_state_in_keras_call_and_map_lambda() -> None:
    source = """
        import keras
        import tensorflow as tf
        seen = []

        class Recorder(keras.layers.Layer):
            def call(self, inputs):
                self.history.append(inputs)
                self.add_loss(tf.reduce_sum(inputs))
                self.last = inputs
                return inputs

        ds = tf.data.Dataset.range(3).map(lambda x: seen.append(x) or x)
    """
    assert found(source, "TFL103") == [8, 13]


def test_tfl103_objects_that_are_not_containers_are_silent() -> None:
    source = """
        import collections
        import keras
        import tensorflow as tf

        class MaskCache:
            def setdefault(self, **kwargs):
                return None

        masks = MaskCache()
        history = collections.deque(maxlen=3)

        class Cell(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self._masks = MaskCache()
                self._seen = []

            def call(self, x):
                self._masks.setdefault(inputs=x)
                masks.setdefault(inputs=x)
                self._seen.append(x)
                history.append(x)
                return x
    """
    assert found(source, "TFL103") == [22, 23]


def test_tfl103_lazy_variable_creation_is_not_a_side_effect() -> None:
    source = """
        import tensorflow as tf
        created = []

        @tf.function
        def f(x):
            if not created:
                created.append(tf.Variable(1.0))
            return x * created[0]
    """
    assert found(source, "TFL103") == []
    assert found(source, "TFL111") == []


def test_tfl103_closure_of_an_eager_function_and_nonlocal() -> None:
    source = """
        import tensorflow as tf

        def train(batches):
            losses = []
            steps = 0

            @tf.function
            def step(x):
                nonlocal steps
                steps += 1
                losses.append(x)
                return x

            for b in batches:
                step(b)
            return losses
    """
    assert found(source, "TFL103") == [11, 12]


def test_tfl103_structure_recorded_once_on_the_first_trace() -> None:
    # An encoder records the Python structure of its state while tracing, once, on purpose.
    source = """
        import tensorflow as tf

        def make_encoder(encoder):
            structure = {}
            seen = {}

            @tf.function
            def encode(x):
                state = encoder.initial_state()
                if not structure:
                    structure["state"] = tf.nest.map_structure(lambda _: None, state)
                seen["last"] = x
                return encoder.encode(x, state)

            return encode
    """
    assert found(source, "TFL103") == [13]


def test_tfl103_nonlocal_inside_the_traced_function_is_local() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def step(x):
            total = 0
            def bump():
                nonlocal total
                total += 1
            bump()
            return x
    """
    assert found(source, "TFL103") == []


def test_tfl103_eager_code_is_silent() -> None:
    source = """
        import tensorflow as tf
        log = []

        def record(x):
            log.append(x)
            with open("out.txt", "w") as fh:
                fh.write(str(x))

        for v in tf.range(3):
            log.append(v)
    """
    assert found(source, "TFL103") == []


def test_tfl103_leaves_tensors_and_variables_to_other_rules() -> None:
    source = """
        import tensorflow as tf
        scores = tf.zeros([3])
        counter = tf.Variable(0)

        @tf.function
        def step(x):
            global counter
            scores[0] = x
            counter += 1
            return x
    """
    assert found(source, "TFL103") == []
    assert found(source, "TFL109") == [9]
    assert found(source, "TFL110") == [10]


# -- TFL104 python-state-in-call -----------------------------------------------------------
def test_tfl104_counter_in_keras_methods_and_helpers() -> None:
    source = """
        import tensorflow as tf

        class Counting(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.calls = 0
                self.loss_sum = 0.0

            def call(self, x):
                self.calls += 1
                return self._double(x)

            def _double(self, x):
                self.doubled = self.doubled + 1
                return x * 2

            def train_step(self, data):
                self.loss_sum = self.loss_sum + 1.0
                return super().train_step(data)

            def build(self, shape):
                self.calls += 0
    """
    assert found(source, "TFL104") == [11, 15, 19]
    assert found(source, "TFL104", "2") == [11, 15, 19]


def test_tfl104_tf_module_method_and_plain_classes() -> None:
    source = """
        import tensorflow as tf

        class Tracker(tf.Module):
            def __init__(self):
                self.count = 0

            @tf.function
            def __call__(self, x):
                self.count += 1
                return x

        class Plain:
            def call(self, x):
                self.count += 1

        class Eager(tf.keras.layers.Layer):
            def fit_counter(self):
                self.count += 1
    """
    assert found(source, "TFL104") == [10]


def test_tfl104_skips_variables_which_are_tfl110() -> None:
    source = """
        import keras

        class Layer(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.steps = self.add_weight(shape=(), initializer="zeros", trainable=False)

            def call(self, x):
                self.steps += 1
                self.steps.assign_add(1)
                return x
    """
    assert found(source, "TFL104") == []
    assert found(source, "TFL110") == [10]


def test_tfl104_counter_that_only_names_ops() -> None:
    # tensorflow-recommenders' TPU embedding: a per-trace call number tags the ops of one
    # layer call for a graph rewrite; changing only while tracing is what it is for.
    source = """
        import tensorflow as tf

        class Lookup(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self._calls = 0

            def call(self, ids):
                self._calls += 1
                tag = "lookup_{}".format(self._calls)
                sent = self._send(ids, name=tag)

                def received(x):
                    return tf.identity(x, name=tag + "_out")

                return received(sent)

            def _send(self, ids, name):
                with tf.name_scope(f"send{self._calls}"):
                    return tf.identity(ids, name=name)
    """
    assert found(source, "TFL104") == []
    # The number also scales a value: then it matters that it changes only while tracing.
    scaled = source.replace("return received(sent)", "return received(sent) * self._calls")
    assert found(scaled, "TFL104") == [10]
    # The tag reaches something other than a name.
    printed = source.replace("return received(sent)", "print(tag)\n        return received(sent)")
    assert found(printed, "TFL104") == [10]


# -- TFL105 python-random-in-graph ---------------------------------------------------------
def test_tfl105_python_and_numpy_random_with_aliases() -> None:
    source = """
        import random as rnd
        import tensorflow as tf
        from numpy import random as npr

        @tf.function
        def noisy(x):
            return x * rnd.random() + npr.rand()

        def augment(x):
            return x + rnd.randint(0, 9)

        ds = tf.data.Dataset.range(5).map(augment)
    """
    assert found(source, "TFL105") == [8, 8, 11]
    ids = [d.message_id for d in diagnostics(source, "TFL105")]
    assert ids == ["default", "default", "dataset"]


def test_tfl105_fix_rewrites_simple_forms_only() -> None:
    source = """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def noisy(x):
            return x * np.random.normal(0.0, 0.1)
    """
    after = fixed(source, "TFL105")
    assert "tf.random.normal([], 0.0, 0.1)" in after
    assert found(after, "TFL105") == []
    no_fix = """
        import random
        import tensorflow as tf

        @tf.function
        def pick(x):
            return x + random.randint(0, 9) + random.uniform(0, 1, )
    """
    fixes = [d.fix for d in diagnostics(no_fix, "TFL105")]
    assert fixes[0] is None and fixes[1] is not None


def test_tfl105_eager_code_tf_random_and_py_function_are_silent() -> None:
    source = """
        import random
        import numpy as np
        import tensorflow as tf

        noise = np.random.rand(3)
        ds = tf.data.Dataset.range(5).map(lambda x: x + tf.random.uniform([], 0, 9, tf.int64))
        ds2 = ds.map(lambda x: tf.py_function(lambda v: v + random.randint(0, 9), [x], tf.int64))

        def eager_jitter(v):
            return v + random.random()
    """
    assert found(source, "TFL105") == []


def test_tfl105_imports_inside_the_function_are_followed() -> None:
    # The block's own imports bind the names too; one of them does not make every other call
    # of the block a candidate (``np`` below is the module's numpy, ``os`` the function's).
    source = """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def step(x):
            import os
            import random as rnd
            from numpy.random import normal
            os.getcwd()
            return x + rnd.random() + normal() + np.random.uniform()

        @tf.function
        def other(x):
            from os import path as random
            return random.join("a", "b")
    """
    assert found(source, "TFL105") == [11, 11, 11]


# -- TFL106 retracing ----------------------------------------------------------------------
def test_tfl106_python_numbers_from_loops() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def train_step(x, epoch):
            return x * epoch

        x = tf.ones([2])
        for epoch in range(10):
            train_step(x, epoch)
            for batch in tf.data.Dataset.range(3):
                train_step(batch, epoch * 0.5)
        for i, batch in enumerate([x, x]):
            train_step(batch, float(i))
        for lr in [0.1, 0.01]:
            train_step(x, epoch=lr)
        results = [train_step(x, i) for i in range(3)]
    """
    assert found(source, "TFL106") == [10, 12, 14, 16, 17]


def test_tfl106_tensors_signatures_and_rebinding_are_silent() -> None:
    source = """
        import tensorflow as tf

        @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
        def fixed(i):
            return i * 2

        @tf.function
        def step(x):
            return x + 1

        def plain(i):
            return i

        for i in range(10):
            fixed(i)
            step(tf.constant(i))
            plain(i)
        for i in range(3):
            i = tf.constant(i)
            step(i)
        for batch in tf.data.Dataset.range(3):
            step(batch)
    """
    assert found(source, "TFL106") == []


def test_tfl106_wrapped_function_names_and_methods() -> None:
    source = """
        import tensorflow as tf

        def body(x, n):
            return x * n

        fast = tf.function(body)
        pinned = tf.function(body, input_signature=[tf.TensorSpec(None), tf.TensorSpec([])])

        class Trainer:
            @tf.function
            def step(self, x, n):
                return x * n

            def fit(self, x):
                for epoch in range(3):
                    self.step(x, epoch)

        for n in range(4):
            fast(tf.ones([2]), n)
            pinned(tf.ones([2]), n)
    """
    assert found(source, "TFL106") == [17, 20]


def test_tfl106_tf_function_created_in_a_loop() -> None:
    source = """
        import tensorflow as tf

        def body(x):
            return x + 1

        x = tf.ones([2])
        for _ in range(5):
            @tf.function
            def inner(v):
                return v * 2
            inner(x)
            tf.function(body)(x)
            step = tf.function(body)
            step(x)
    """
    assert found(source, "TFL106") == [9, 13, 14]
    ids = {d.message_id for d in diagnostics(source, "TFL106")}
    assert ids == {"created_in_loop"}


def test_tfl106_functions_built_once_are_silent() -> None:
    source = """
        import tensorflow as tf

        def body(x):
            return x + 1

        def main(dataset):
            @tf.function
            def step(x):
                return x * 2
            for batch in dataset:
                step(batch)

        steps = {}
        for name in ["a", "b"]:
            steps[name] = tf.function(body)
        for name in ["a", "b"]:
            fn = tf.function(body)
            for batch in tf.data.Dataset.range(3):
                fn(batch)

        class Model:
            def __init__(self):
                @tf.function
                def compiled(x):
                    return x
                self.compiled = compiled
                compiled(tf.ones([1]))
    """
    assert found(source, "TFL106") == []


def test_tfl106_created_on_every_call_of_a_wrapper() -> None:
    source = """
        import tensorflow as tf

        def predict(model, x):
            return tf.function(model)(x)

        def transform(x):
            @tf.function
            def inner(v):
                return v * 2
            return inner(x)
    """
    assert found(source, "TFL106") == [5, 8]
    ids = {d.message_id for d in diagnostics(source, "TFL106")}
    assert ids == {"created_per_call"}


def test_tfl106_factory_called_in_a_loop() -> None:
    source = """
        import tensorflow as tf

        def make_step(scale):
            @tf.function
            def step(x):
                return x * scale
            return step

        for scale in [1.0, 2.0]:
            step = make_step(scale)
            step(tf.ones([2]))
    """
    assert found(source, "TFL106") == [11]


def test_tfl106_a_helper_makes_a_tf_function_only_when_all_it_returns_is_one() -> None:
    # What a call of this module's function holds is what the function returns, whatever the
    # arguments: a helper that may return a plain lambda, or a tensor, makes no tf.function.
    source = """
        import tensorflow as tf

        def make_step(scale):
            @tf.function
            def step(x):
                return x * scale
            return step

        def maybe_step(scale, eager):
            if eager:
                return lambda x: x * scale
            return make_step(scale)

        def apply(fn, x):
            return fn(x)

        for scale in [1.0, 2.0]:
            step = make_step(scale)
            other = maybe_step(scale, False)
            mapped = apply(step, tf.ones([2]))
            step(mapped)
            other(mapped)
            mapped(scale)
    """
    assert found(source, "TFL106") == [19]


def test_tfl106_silent_when_nothing_says_the_outer_function_runs_again() -> None:
    # A test method runs once; a step function handed to strategy.run may run only while
    # an outer tf.function traces it.  A nested step the module calls in a loop still counts.
    source = """
        import tensorflow as tf

        class AugmentTest(tf.test.TestCase):
            def test_distort(self, image):
                fn = tf.function(distort)
                fn(image)

        def train_step(strategy, iterator):
            def step_fn(inputs):
                step = tf.function(compute, jit_compile=True)
                return step(inputs)
            strategy.run(step_fn, args=(next(iterator),))

        def train(batches):
            def step_fn(inputs):
                step = tf.function(compute)
                return step(inputs)
            for batch in batches:
                step_fn(batch)
    """
    assert found(source, "TFL106") == [17]


# -- TFL107 deprecated-run-functions-eagerly -----------------------------------------------
def test_tfl107_both_experimental_spellings_with_safe_fix() -> None:
    source = """
        import tensorflow as tensorflow_alias
        tensorflow_alias.config.experimental_run_functions_eagerly(False)
        print(tensorflow_alias.config.experimental_functions_run_eagerly())
    """
    diags = diagnostics(source, "TFL107")
    assert [d.line for d in diags] == [3, 4]
    assert all(d.fix is not None and d.fix.safe for d in diags)
    after = fixed(source.replace("print(", "#"), "TFL107")
    assert "tensorflow_alias.config.run_functions_eagerly(False)" in after


def test_tfl107_other_objects_are_silent() -> None:
    source = """
        import tensorflow as tf
        tf.config.run_functions_eagerly(False)
        settings.config.experimental_run_functions_eagerly(True)
    """
    assert found(source, "TFL107") == []


# -- TFL108 eager-debug-left-on ------------------------------------------------------------
def test_tfl108_switches_left_on() -> None:
    source = """
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
        model.run_eagerly = True
        tf.config.run_functions_eagerly(True)
        tf.config.experimental_run_functions_eagerly(True)
        tf.data.experimental.enable_debug_mode()
    """
    assert found(source, "TFL108") == [4, 5, 6, 7, 8]
    assert found(source, "TFL107") == [7]


def test_tfl108_debug_guards_variables_and_tests_are_silent() -> None:
    source = """
        import os
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=args.debug)
        if args.debug:
            model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
        if os.environ.get("TF_EAGER"):
            tf.config.run_functions_eagerly(True)
        if not DEBUG_MODE:
            pass
        else:
            tf.data.experimental.enable_debug_mode()
        tf.config.run_functions_eagerly(False)

        def test_model_runs_eagerly():
            model.compile(loss="mse", run_eagerly=True)
    """
    assert found(source, "TFL108") == []


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("model.compile(run_eagerly=True)", "model.compile()"),
        ('model.compile("sgd", run_eagerly=True)', 'model.compile("sgd")'),
        ('model.compile(run_eagerly=True, loss="mse")', 'model.compile(loss="mse")'),
        (
            'model.compile(\n    optimizer="sgd",\n    run_eagerly=True,\n)',
            'model.compile(\n    optimizer="sgd",\n)',
        ),
    ],
)
def test_tfl108_fix_drops_the_keyword_and_its_comma(call: str, expected: str) -> None:
    source = f"import keras\nmodel = keras.Sequential()\n{call}\n"
    after = fixed(source, "TFL108")
    assert after.endswith(expected + "\n")
    ast.parse(after)


# -- TFL109 tensor-item-assignment ---------------------------------------------------------
def test_tfl109_tensors_and_variables() -> None:
    source = """
        import tensorflow as tf
        import keras

        @tf.function
        def f(x):
            y = tf.zeros_like(x)
            y[0] = 1.0
            z = y * 2
            z[1] += 3.0
            return z

        table = tf.constant([1, 2, 3])
        table[0] = 5

        class L(keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(3,), initializer="zeros")

            def call(self, x):
                self.w[0] = 1.0
                return x
    """
    assert found(source, "TFL109") == [8, 10, 14, 21]
    ids = [d.message_id for d in diagnostics(source, "TFL109")]
    assert ids == ["default", "default", "default", "variable"]


def test_tfl109_variable_fix_assigns_into_the_slice() -> None:
    source = """
        import tensorflow as tf
        v = tf.Variable([1.0, 2.0])
        v[0] += 5.0
    """
    after = fixed(source, "TFL109")
    assert "v[0].assign(v[0] + (5.0))" in after
    assert found(after, "TFL109") == []


def test_tfl109_python_containers_are_silent() -> None:
    source = """
        import numpy as np
        import tensorflow as tf

        arr = np.zeros(3)
        arr[0] = 1.0

        def parse(record):
            features = tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([], tf.int64)})
            features["x"] = tf.cast(features["x"], tf.float32)
            parts = tf.split(tf.ones([4]), 2)
            parts[0] = tf.zeros([2])
            out = [tf.zeros([2])]
            out[0] = tf.ones([2])
            return features
    """
    assert found(source, "TFL109") == []


# -- TFL110 variable-rebinding -------------------------------------------------------------
@pytest.mark.parametrize(
    ("statement", "replacement"),
    [
        ("self.total = self.total + x", "self.total.assign_add(x)"),
        ("self.total = x + self.total", "self.total.assign_add(x)"),
        ("self.total = self.total - x", "self.total.assign_sub(x)"),
        ("self.total += x", "self.total.assign_add(x)"),
        ("self.total -= x", "self.total.assign_sub(x)"),
        ("self.total *= 0.5", "self.total.assign(self.total * (0.5))"),
        ("self.total = self.total * 0.9 + x", "self.total.assign(self.total * 0.9 + x)"),
    ],
)
def test_tfl110_attribute_forms_and_fixes(statement: str, replacement: str) -> None:
    source = f"""
import keras

class Total(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.total = self.add_weight(shape=(), initializer="zeros", trainable=False)

    def call(self, x):
        {statement}
        return x
"""
    assert found(source, "TFL110") == [10]
    after = fixed(source, "TFL110")
    assert f"        {replacement}\n" in after
    assert found(after, "TFL110") == []


def test_tfl110_names_in_functions_and_across_blocks() -> None:
    source = """
        import tensorflow as tf
        import keras

        step = tf.Variable(0)
        step += 1

        def train(w_init):
            w = tf.Variable(w_init)
            w = w - 0.1
            scale = keras.Variable(1.0)
            scale = scale * 2
            return w, scale

        def update(step):
            step = step + 1
            return step
    """
    assert found(source, "TFL110") == [6, 10, 12]
    assert found(source, "TFL110", "2") == [6, 10, 12]


def test_tfl110_tensors_and_assign_calls_are_silent() -> None:
    source = """
        import tensorflow as tf
        x = tf.constant(1.0)
        x = x + 1.0
        v = tf.Variable(1.0)
        v.assign_add(1.0)
        total = 0
        total += 1
    """
    assert found(source, "TFL110") == []


# -- TFL111 variable-created-per-call ------------------------------------------------------
def test_tfl111_unguarded_creation_in_graph_code() -> None:
    source = """
        import keras
        import tensorflow as tf

        def make_state():
            return tf.Variable(0.0)

        @tf.function
        def step(x):
            v = tf.Variable(x)
            make_state()
            return v

        class L(keras.layers.Layer):
            def call(self, x):
                self.k = keras.Variable(1.0)
                return x * self.k
    """
    assert found(source, "TFL111") == [6, 10, 16]


def test_tfl111_guarded_outside_or_eager_creation_is_silent() -> None:
    source = """
        import keras
        import tensorflow as tf

        total = tf.Variable(0.0)

        class Acc(tf.Module):
            def __init__(self):
                self.v = None
                self.w = tf.Variable(1.0)

            @tf.function
            def __call__(self, x):
                if self.v is None:
                    self.v = tf.Variable(tf.zeros_like(x))
                if not hasattr(self, "u"):
                    self.u = tf.Variable(0.0)
                self.v.assign_add(x)
                return self.v

        class L(keras.layers.Layer):
            def build(self, shape):
                self.k = tf.Variable(1.0)

        def eager_setup():
            return tf.Variable(0.0)
    """
    assert found(source, "TFL111") == []


# -- TFL112 python-bool-of-tensor-outside-autograph ----------------------------------------
def test_tfl112_autograph_off_and_do_not_convert() -> None:
    source = """
        import tensorflow as tf

        @tf.function(autograph=False)
        def relu(x, limit=3):
            if x > 0:
                return x
            while limit > 0:
                limit -= 1
            return -x

        @tf.autograph.experimental.do_not_convert
        def helper(x):
            return x if tf.reduce_sum(x) > 0 else -x

        @tf.function
        def outer(x):
            assert tf.reduce_all(x > 0)
            return helper(x)
    """
    assert found(source, "TFL112") == [6, 14]


def test_tfl112_autograph_converts_ordinary_tf_functions() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def sign(x):
            if x > 0:
                return 1
            while tf.reduce_sum(x) > 10:
                x = x / 2
            return -1

        ds = tf.data.Dataset.range(4).map(lambda v: v if v > 1 else -v)

        @tf.autograph.experimental.do_not_convert
        def eager_only(x):
            return x if tf.reduce_sum(x) > 0 else -x
    """
    assert found(source, "TFL112") == []


def test_tfl112_keras_call_and_losses_fail_only_on_keras3() -> None:
    source = """
        import keras
        import tensorflow as tf

        class Flip(keras.layers.Layer):
            def call(self, inputs, training=None, mask=None):
                if training:
                    inputs = inputs * 0.5
                if mask is not None and inputs.shape[-1] == 3:
                    pass
                total = tf.reduce_sum(inputs)
                if total < 0:
                    return -inputs
                return self._pick(inputs)

            def _pick(self, inputs):
                while tf.reduce_max(inputs) > 10.0:
                    inputs = inputs / 2
                return inputs

        def my_loss(y_true, y_pred):
            if tf.reduce_mean(y_pred) > 1e9:
                return tf.reduce_mean(y_pred)
            return tf.reduce_mean(tf.square(y_true - y_pred))

        model = keras.Sequential([Flip()])
        model.compile(loss=my_loss)
    """
    assert found(source, "TFL112", "3") == [12, 17, 22]
    assert found(source, "TFL112", "2") == []


def test_tfl112_keras_steps_fail_on_both_versions() -> None:
    source = """
        import tensorflow as tf

        class M(tf.keras.Model):
            def train_step(self, data):
                x, y = data
                if tf.reduce_any(tf.math.is_nan(x)):
                    return {}
                return super().train_step(data)

            @tf.function
            def call(self, x):
                if tf.reduce_sum(x) > 0:
                    return x
                return -x
    """
    assert found(source, "TFL112", "3") == [7]
    assert found(source, "TFL112", "2") == [7]
    assert {d.message_id for d in diagnostics(source, "TFL112")} == {"keras_step"}


def test_tfl112_bool_of_tensor_and_numpy_owned_by_tfl102() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def f(x, flag=True):
            ok = bool(tf.reduce_any(x > 0))
            plain = bool(flag)
            if x.numpy() > 0:
                return x
            return x
    """
    assert found(source, "TFL112") == [6]
    assert found(source, "TFL102") == [8]


# -- every message variant renders ----------------------------------------------------------
EVERY_VARIANT = """
import json
import random
import keras
import numpy as np
import tensorflow as tf

log = []
cache = {}
calls = 0
weights = tf.Variable([1.0, 2.0])
scores = tf.zeros([2])
step = tf.Variable(0)


@tf.function
def traced(x):
    global calls
    calls += 1
    log.append(x)
    cache["x"] = x
    json.dump({}, open("out.json", "w"))
    v = tf.Variable(x)
    ok = bool(tf.reduce_any(x > 0))
    return x * random.random()


@tf.function(autograph=False)
def no_autograph(x):
    if x > 0:
        return x
    return -x


class Model(keras.Model):
    def __init__(self):
        super().__init__()
        self.count = 0
        self.total = self.add_weight(shape=(), initializer="zeros")

    def call(self, x):
        self.count += 1
        self.total = self.total + 1.0
        if tf.reduce_sum(x) > 0:
            return x
        return -x

    def train_step(self, data):
        if tf.reduce_sum(data[0]) > 0:
            pass
        return super().train_step(data)


def wrapper(x):
    return tf.function(lambda v: v)(x)


ds = tf.data.Dataset.range(3).map(lambda v: v + random.randint(0, 3))
for i in range(3):
    traced(i)
    tf.function(lambda v: v * 2)(i)
weights[0] = 5.0
scores[0] = 1.0
step += 1
model = Model()
model.compile(loss="mse", run_eagerly=True)
model.run_eagerly = True
tf.config.experimental_run_functions_eagerly(True)
tf.data.experimental.enable_debug_mode()
"""


def test_every_message_variant_is_exercised_and_renders() -> None:
    result = analyzer("ALL", "3").analyze(EVERY_VARIANT)
    ours = [d for d in result.diagnostics if "TFL103" <= d.code <= "TFL112"]
    produced = {(d.code, d.message_id) for d in ours}
    declared = {
        (code, variant)
        for code in (f"TFL{n}" for n in range(103, 113))
        for variant in CATALOG[code].messages
    }
    assert produced == declared
    for d in ours:
        pattern = CATALOG[d.code]
        for lang in LANGUAGES:
            text = pattern.messages[d.message_id][lang].format_map(dict(d.args))
            assert "{" not in text and "}" not in text
            if d.fix is not None:
                title = pattern.fix.title[lang].format_map(dict(d.fix.args))
                assert "{" not in title


# -- idiomatic code stays silent -------------------------------------------------------------
IDIOMATIC = """
import argparse
import random

import keras
import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--debug", action="store_true")
args = parser.parse_args()
random.seed(0)
np.random.seed(0)
EPOCHS = 3


class Residual(keras.layers.Layer):
    def __init__(self, units, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.rate = rate
        self.blocks = [keras.layers.Dense(units) for _ in range(2)]
        self.norm = keras.layers.LayerNormalization()

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
        self.calls = self.add_weight(shape=(), initializer="zeros", trainable=False, name="calls")

    def call(self, inputs, training=False, mask=None):
        x = inputs
        for block in self.blocks:
            x = block(x)
        if training and self.rate > 0:
            x = tf.nn.dropout(x, rate=self.rate)
        if mask is not None and inputs.shape[-1] == self.units:
            x = x * tf.cast(mask[..., None], x.dtype)
        self.calls.assign_add(1.0)
        return self.norm(inputs + self.scale * x)


def augment(image, label):
    image = image + tf.random.normal(tf.shape(image), stddev=0.05)
    image = tf.where(image > 1.0, tf.ones_like(image), image)
    return image, label


features = np.random.rand(64, 8).astype("float32")
labels = np.random.randint(0, 2, size=(64,))
train_ds = (
    tf.data.Dataset.from_tensor_slices((features, labels))
    .shuffle(64)
    .map(augment, num_parallel_calls=tf.data.AUTOTUNE)
    .batch(16)
    .prefetch(tf.data.AUTOTUNE)
)

model = keras.Sequential([keras.Input((8,)), Residual(8), keras.layers.Dense(2)])
optimizer = keras.optimizers.Adam(1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_loss = keras.metrics.Mean()
step_counter = tf.Variable(0, dtype=tf.int64)


@tf.function(reduce_retracing=True)
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_loss.update_state(loss)
    step_counter.assign_add(1)
    outputs = []
    for i in range(2):
        outputs.append(logits[:, i])
    if loss > 10.0:
        loss = loss / 10.0
    return loss, tf.stack(outputs)


history = []
for epoch in range(EPOCHS):
    train_loss.reset_state()
    for step, (x, y) in enumerate(train_ds):
        loss, _ = train_step(x, y)
    history.append(float(train_loss.result()))
    print(f"epoch {epoch}: loss={history[-1]:.3f}")

model.compile(optimizer="adam", loss=loss_fn, run_eagerly=args.debug)
if args.debug:
    tf.config.run_functions_eagerly(True)
model.fit(train_ds, epochs=1, verbose=0)
results = {}
results["final_loss"] = history[-1]
"""


@pytest.mark.parametrize("target", ["3", "2"])
def test_idiomatic_training_script_has_no_graph_family_findings(target: str) -> None:
    assert lint(IDIOMATIC, "TFL1", target) == []


# -- cached findings follow edits in other blocks --------------------------------------------
_LOOP = """
for epoch in range(3):
    step(tf.ones([2]), epoch)
counter += 1
cache.update(a=1)
"""


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # the callee becomes (or stops being) a tf.function, or gets an input_signature
        ("def step(x, n):\n    return x\n", "@tf.function\ndef step(x, n):\n    return x\n"),
        ("@tf.function\ndef step(x, n):\n    return x\n", "def step(x, n):\n    return x\n"),
        (
            "@tf.function\ndef step(x, n):\n    return x\n",
            "@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec([])])\n"
            "def step(x, n):\n    return x\n",
        ),
        # a module-level name becomes a variable
        ("counter = 0\n", "counter = tf.Variable(0)\n"),
    ],
)
def test_incremental_results_match_a_fresh_analysis(before: str, after: str) -> None:
    head = "import tensorflow as tf\n\ncache = {}\n"
    warm = analyzer("ALL", "3")
    first = [(d.line, d.code) for d in warm.analyze(head + before + _LOOP).diagnostics]
    incremental = [(d.line, d.code) for d in warm.analyze(head + after + _LOOP).diagnostics]
    fresh = [
        (d.line, d.code) for d in analyzer("ALL", "3").analyze(head + after + _LOOP).diagnostics
    ]
    assert incremental == fresh
    assert [c for _, c in first] != [c for _, c in fresh], "the edit must change the findings"


# -- real-code-findings M3: state made once, containers rebuilt per call --------------------
def test_guarded_one_time_creation_of_a_global_is_not_a_side_effect() -> None:
    source = """
        import tensorflow as tf
        g = None

        @tf.function
        def sample():
            global g
            if g is None:
                g = tf.random.Generator.from_seed(1)
            return g.normal([])

        sample()
        sample()
    """
    assert [line for line, code in lint(source, ("TFL103", "TFL113")) if code] == []


def test_a_container_rebuilt_in_the_same_call_is_not_leaked_state() -> None:
    source = """
        import keras

        class Net(keras.layers.Layer):
            def call(self, x):
                self.endpoints = {}
                self.endpoints["input"] = x
                self.endpoints.update({"output": x})
                return x
    """
    assert lint(source, "TFL103") == []
    # Without the fresh dict, filling ``self.endpoints`` leaks from the trace.
    leaked = source.replace("self.endpoints = {}", "pass")
    assert [line for line, _ in lint(leaked, "TFL103")] == [8]


def test_tfl106_made_per_call_when_options_come_from_the_call_or_reused_inside() -> None:
    # real-code-findings M9: the signature comes from the outer call, or the new tf.function
    # serves many calls inside it: making it per call is how such code has to be written.
    source = """
        import tensorflow as tf

        def benchmark(model, images, spec, runs):
            @tf.function(input_signature=[spec])
            def run(x):
                return model(x)

            for _ in range(runs):
                run(images)

        def export(params, boxes):
            @tf.function(experimental_implements=params["signature"])
            def post(b):
                return b

            return post(boxes)
    """
    assert found(source, "TFL106") == []


def test_tfl106_made_per_call_and_reused_by_a_comprehension_inside() -> None:
    # tf-models' nhnet test helper: one tf.function per helper call (each call gets another
    # model), called for every batch by a comprehension in the same call.
    source = """
        import tensorflow as tf

        def forward(model, inputs, batch_size):
            dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(batch_size)

            @tf.function
            def step(inputs):
                return model(inputs, training=False)

            return [step(inputs) for inputs in dataset]

        def once(model, inputs):
            @tf.function
            def step(x):
                return model(x)

            return [step(inputs)][0]

        def iterated(model, inputs):
            @tf.function
            def step(x):
                return model(x)

            return [y for y in step(inputs)]
    """
    # The iterable of a comprehension's first ``for`` is evaluated once.
    assert found(source, "TFL106") == [14, 21]


def test_tfl115_layer_loops_in_traced_code_and_consumed_tensors() -> None:
    # real-code-findings M6: a dense block joins features once per layer (a Python loop
    # unrolled while tracing), a decoder replaces the joined tensor every step.
    source = """
        import keras
        import tensorflow as tf

        class DenseBlock(keras.layers.Layer):
            def call(self, x):
                for block in self.blocks:
                    x = tf.concat([x, block(x)], axis=-1)
                return x

        def decode(x, skips, convs):
            for conv, skip in zip(convs, skips):
                x = conv(x)
                x = tf.concat([x, skip], axis=-1)
            return x

        def collect(ds):
            acc = tf.zeros([0])
            for batch in ds:
                acc = tf.concat([acc, batch], 0)
            return acc
    """
    assert [line for line, _ in lint(source, "TFL115")] == [20]


def test_tfl115_tensor_bound_afresh_earlier_in_the_iteration() -> None:
    # A loss loop over feature levels: each level takes its own slice, then joins it with
    # batch indices; nothing is carried into the next iteration.
    source = """
        import tensorflow as tf

        def loss(levels, indices, masks):
            total = tf.zeros([0])
            for i, level in enumerate(levels):
                if tf.reduce_any(masks[i]):
                    picked = indices[:, i]
                    batch = tf.zeros_like(picked[..., :1])
                    picked = tf.concat([batch, picked], axis=-1)
                    picked = tf.boolean_mask(picked, masks[i])
                    total = tf.concat([total, picked], axis=0)
                total = tf.concat([total, tf.zeros([1])], axis=0)  # carried on: grows too
            return total
    """
    assert [line for line, _ in lint(source, "TFL115")] == [12, 13]


def test_tfl108_eager_functions_switched_back_off() -> None:
    # real-code-findings M7: a guide turns eager execution on to show something, then off.
    source = """
        import tensorflow as tf
        tf.config.run_functions_eagerly(True)
        print("debugging")
        tf.config.run_functions_eagerly(False)
        tf.config.run_functions_eagerly(True)
    """
    assert [line for line, _ in lint(source, "TFL108")] == [6]


def test_tfl108_switch_paired_with_a_switch_off_is_scoped() -> None:
    """A test class that turns eager execution on in setUp and off in tearDown leaves nothing
    on (tf-agents' PPO tests); so do try/finally, a fixture that yields, a later ``False`` and
    ``addCleanup``.  A setUp without its switch-off stays a finding."""
    source = """
        import unittest
        import tensorflow as tf

        class EagerCase(unittest.TestCase):
            def setUp(self):
                super().setUp()
                tf.config.experimental_run_functions_eagerly(True)

            def tearDown(self):
                tf.config.experimental_run_functions_eagerly(False)
                super().tearDown()

        class ClassWide(unittest.TestCase):
            @classmethod
            def setUpClass(cls):
                tf.config.run_functions_eagerly(True)

            @classmethod
            def tearDownClass(cls):
                tf.config.run_functions_eagerly(run_eagerly=False)

        class Cleaned(unittest.TestCase):
            def setUp(self):
                tf.config.run_functions_eagerly(True)
                self.addCleanup(tf.config.run_functions_eagerly, False)

        def inspect_eagerly(step):
            tf.config.run_functions_eagerly(True)
            try:
                return step()
            finally:
                tf.config.run_functions_eagerly(False)

        def eager_fixture():
            tf.config.run_functions_eagerly(True)
            yield
            tf.config.run_functions_eagerly(False)

        class LeftOn(unittest.TestCase):
            def setUp(self):
                tf.config.run_functions_eagerly(True)

            def tearDown(self):
                tf.config.run_functions_eagerly(True)

        def switch_back_first():
            tf.config.run_functions_eagerly(False)
            tf.config.run_functions_eagerly(True)
    """
    assert found(source, "TFL108") == [42, 45, 49]
    assert found(source, "TFL107") == [8, 11]


def test_tfl108_switch_undone_by_a_registered_finalizer_is_scoped() -> None:
    """A pytest fixture that switches eager on and registers a finalizer switching it off
    (tensorflow-addons' test utilities) is scoped.  A finalizer read here that does not switch
    off is still a finding; one defined in another top-level statement is not known, and
    unknown is not a reason to report."""
    source = """
        import tensorflow as tf

        def restore_graphs():
            tf.config.run_functions_eagerly(False)

        def fixture_with_module_finalizer(request):
            tf.config.run_functions_eagerly(True)
            request.addfinalizer(restore_graphs)

        def fixture_with_lambda(request):
            tf.config.run_functions_eagerly(True)
            request.addfinalizer(lambda: tf.config.run_functions_eagerly(False))

        def fixture_with_nested_finalizer(request):
            def undo():
                tf.config.run_functions_eagerly(False)

            tf.config.run_functions_eagerly(True)
            request.addfinalizer(undo)

        def fixture_forgetting_it(request):
            def undo():
                print("finished")

            tf.config.run_functions_eagerly(True)
            request.addfinalizer(undo)
            request.addfinalizer(lambda: print("done"))
    """
    assert found(source, "TFL108") == [26]


def test_branches_that_say_not_traced_run_eagerly() -> None:
    """A layer's call() takes a pure-Python path only when a helper says it is not traced
    (keras-hub's preprocessing layers): that path runs eagerly, Python's random is fine
    there.  The helper may test tf.executing_eagerly()/tf.inside_function() itself or call
    another helper; a test that says nothing about tracing keeps the path in the graph."""
    source = """
        import random
        import keras
        import tensorflow as tf

        def traced():
            if tf is None:
                return False
            return not tf.executing_eagerly()

        class Masker(keras.layers.Layer):
            def _graph_path(self):
                if traced():
                    return True
                if self.python_ok:
                    return False
                return True

            def call(self, x):
                if self._graph_path():
                    return self._call_tf(x)
                return self._call_python(x)

            def _call_tf(self, x):
                return x

            def _call_python(self, x):
                return x + random.random()

        class Eager(keras.layers.Layer):
            def call(self, x):
                if not tf.inside_function():
                    return self._python(x)
                return x

            def _python(self, x):
                return x + random.random()

        class Unknown(keras.layers.Layer):
            def call(self, x):
                if self.fast:
                    return self._python(x)
                return x

            def _python(self, x):
                return x + random.random()
    """
    assert found(source, "TFL105") == [46]


def test_an_eager_only_branch_inside_a_tf_function_is_not_graph_code() -> None:
    """Inside a tf.function, ``if not tf.inside_function():`` never runs while traced (the
    body only runs under run_functions_eagerly), so Python printing there is not TFL101."""
    source = """
        import tensorflow as tf

        @tf.function
        def step(x):
            if not tf.inside_function():
                print("eager value", x)
            if tf.executing_eagerly():
                print("eager again", x)
            else:
                print("traced", x)
            return x
    """
    assert found(source, "TFL101") == [11]


# -- what runs as a graph: map functions of a receiver the model cannot type ----------------
def test_bound_method_mapped_with_tf_data_keywords_is_graph_code() -> None:
    # tf-models' WMT loader, paraphrased: a pipeline method receives ``dataset`` as a parameter
    # (its kind is unknown) and maps a bound method of its own class over it; the tf.data-only
    # keyword says it is a Dataset.map, so the method is traced and its print runs once.
    source = """
        import tensorflow as tf

        class Loader:
            def _parse(self, record):
                print(record)
                return record

            def build(self, dataset):
                return dataset.map(self._parse, num_parallel_calls=tf.data.AUTOTUNE)
    """
    assert found(source, "TFL101") == [6]
    # Without a keyword only tf.data takes, ``.map`` of an unknown receiver stays unknown.
    assert found(source.replace(", num_parallel_calls=tf.data.AUTOTUNE", ""), "TFL101") == []
