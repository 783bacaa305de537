"""Hard cases for the weight-tracking family (TFL301-TFL306).

Each test states the Keras version it targets: several rules apply to one version only, or
differ between them (see the catalog entries for the measured behaviour).
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.helpers import analyze, analyzer, lint
from tflsp.analysis.fixes import apply_edits


def found(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, code, target) if c == code]


def fixed(source: str, code: str, target: str = "3") -> list[str]:
    """The source after each fix offered for ``code`` (one result per diagnostic)."""
    text = textwrap.dedent(source)
    out = []
    for d in analyze(source, code, target).diagnostics:
        if d.code == code and d.fix is not None:
            out.append(apply_edits(text, d.fix.edits))
    return out


BOTH = pytest.mark.parametrize("target", ["3", "2"])


# -- TFL301 raw-variable-in-layer ---------------------------------------------------------
def test_301_variable_in_build_is_keras3_only() -> None:
    src = """
        import tensorflow as tf
        class Scale(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.w = tf.Variable(tf.ones((input_shape[-1],)))
    """
    assert found(src, "TFL301", "3") == [5]
    assert found(src, "TFL301", "2") == []


def test_301_counter_in_model_init_and_every_spelling() -> None:
    src = """
        import tensorflow as tensorf
        from tensorflow import Variable
        import tensorflow.compat.v1 as tf1
        from keras import Model, layers

        class Net(Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.counter = tensorf.Variable(0, trainable=False)
                self.bias = Variable(0.0)
                self.old = tf1.Variable(1.0)

        class Block(layers.Layer):
            pass

        class Deeper(Block):
            def build(self, shape):
                self.k = tensorf.Variable(1.0)
    """
    assert found(src, "TFL301") == [10, 11, 12, 19]


def test_301_containers_appends_and_one_local_hop() -> None:
    src = """
        import tensorflow as tf
        import keras
        class Layer(keras.layers.Layer):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.pair = [tf.Variable(1.0), tf.Variable(2.0)]
                self.named = {"a": tf.Variable(3.0)}
                self.grown = []
                self.grown.append(tf.Variable(4.0))
            def build(self, shape):
                w = tf.Variable(tf.zeros(shape))
                self.kernel = w
    """
    assert found(src, "TFL301") == [7, 7, 8, 10, 12]


def test_301_quiet_for_tracked_and_non_keras_state() -> None:
    src = """
        import tensorflow as tf
        import keras

        GLOBAL_STEP = tf.Variable(0)

        class Good(keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(shape[-1],), initializer="ones")
                self.v = keras.Variable(1.0)
                self.c = self.add_variable(shape=(), initializer="zeros")

        class Plain:
            def __init__(self):
                self.w = tf.Variable(1.0)

        class Mod(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(1.0)

        def train():
            w = tf.Variable(1.0)
            return w
    """
    assert found(src, "TFL301") == []


def test_301_variable_on_helper_object_is_left_to_tfl304() -> None:
    src = """
        import tensorflow as tf
        import keras
        class Holder:
            pass
        class L(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.h = Holder()
                self.h.v = tf.Variable(1.0)
    """
    assert lint(src, ("TFL301", "TFL304")) == [(10, "TFL304")]


def test_301_fix_uses_the_keras_spelling_of_the_module() -> None:
    with_keras = """
        import tensorflow as tf
        import keras
        class L(keras.layers.Layer):
            def build(self, shape):
                self.w = tf.Variable(tf.ones((3,)), name="w", trainable=True)
    """
    (result,) = fixed(with_keras, "TFL301")
    assert 'self.w = keras.Variable(tf.ones((3,)), name="w", trainable=True)' in result
    assert found(result, "TFL301") == []

    only_tf = """
        import tensorflow as tf
        class L(tf.keras.layers.Layer):
            def build(self, shape):
                self.w = tf.Variable(initial_value=tf.zeros((2,)))
    """
    (result,) = fixed(only_tf, "TFL301")
    assert "self.w = tf.keras.Variable(initializer=tf.zeros((2,)))" in result
    ast.parse(result)
    assert found(result, "TFL301") == []


@pytest.mark.parametrize(
    "call",
    [
        "tf.Variable(1.0, validate_shape=False)",  # no keras.Variable counterpart
        'tf.Variable(1.0, name="block/w")',  # keras.Variable refuses "/" in names
        "tf.Variable(lambda: tf.zeros((2,)))",  # a callable needs shape= with keras.Variable
        "tf.Variable(1.0, True)",  # the second positional argument means shape there
        "tf.Variable(**options)",
    ],
)
def test_301_no_fix_when_the_arguments_do_not_map(call: str) -> None:
    src = f"""
        import tensorflow as tf
        import keras
        class L(keras.layers.Layer):
            def build(self, shape, options={{}}):
                self.w = {call}
    """
    assert found(src, "TFL301") == [6]
    assert fixed(src, "TFL301") == []


# -- TFL302 tf1-get-variable-in-layer -----------------------------------------------------
GET_VARIABLE_IN_BUILD = """
    import tensorflow as tf
    from tensorflow import keras
    class L(keras.layers.Layer):
        def build(self, shape):
            self.kernel = tf.compat.v1.get_variable("kernel", shape=(shape[-1], 1))
"""


def test_302_build_is_untracked_on_keras3_only() -> None:
    assert found(GET_VARIABLE_IN_BUILD, "TFL302", "3") == [6]
    assert found(GET_VARIABLE_IN_BUILD, "TFL302", "2") == []


@BOTH
def test_302_call_is_broken_on_both(target: str) -> None:
    src = """
        import tensorflow.compat.v1 as tf
        import tf_keras
        class L(tf_keras.layers.Layer):
            def call(self, x):
                w = tf.get_variable("w", shape=(3, 1))
                return tf.matmul(x, w)
    """
    assert found(src, "TFL302", target) == [6]


def test_302_tf1_shim_is_respected_on_keras2() -> None:
    src = """
        import tensorflow as tf
        class L(tf.keras.layers.Layer):
            @tf.compat.v1.keras.utils.track_tf1_style_variables
            def call(self, x):
                with tf.compat.v1.variable_scope("dense"):
                    w = tf.compat.v1.get_variable("w", shape=(3, 1))
                return tf.matmul(x, w)
    """
    assert found(src, "TFL302", "2") == []
    assert found(src, "TFL302", "3") == [7]


def test_302_not_in_plain_code_and_not_for_the_removed_tf2_name() -> None:
    src = """
        import tensorflow as tf
        def tf1_style():
            return tf.compat.v1.get_variable("w", shape=(2,))
        class L(tf.keras.layers.Layer):
            def build(self, shape):
                self.w = tf.get_variable("w", shape=(2,))
    """
    # tf.get_variable does not exist on TF 2 at all; that is TFL601's report.
    assert found(src, "TFL302", "3") == []


# -- TFL303 layer-created-in-call ---------------------------------------------------------
@BOTH
def test_303_layers_models_and_metrics_made_per_step(target: str) -> None:
    src = """
        import tensorflow as tf
        from tensorflow import keras
        from tensorflow.keras import layers

        class Block(layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(1,))

        class Net(keras.Model):
            def call(self, x):
                x = layers.Dense(4)(x)
                x = Block()(x)
                x = keras.Sequential([layers.Dense(2)])(x)
                return self.head(x)

            def head(self, x):
                return tf.keras.layers.Conv1D(2, 1)(x)

            def train_step(self, data):
                tracker = keras.metrics.Mean()
                return {"loss": tracker.result()}
    """
    # ``Block`` makes a weight: a stateless local layer would lose nothing (see below).
    assert found(src, "TFL303", target) == [12, 13, 14, 14, 18, 21]


@BOTH
def test_303_quiet_for_setup_methods_stateless_layers_and_plain_graphs(target: str) -> None:
    src = """
        import tensorflow as tf
        import keras

        def make_block(units):
            return keras.layers.Dense(units)

        @tf.function
        def standalone(x):
            return x * 2

        class Net(keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.blocks = [make_block(4), make_block(2)]
                self.pairs = (keras.layers.Dense(3), keras.layers.Dense(3))

            def build(self, shape):
                self.out = keras.layers.Dense(1)

            def call(self, x):
                x = keras.layers.Flatten()(x)
                x = keras.layers.Activation("relu")(x)
                x = keras.layers.Concatenate()([x, x])
                for block in self.blocks:
                    x = block(x)
                return self.out(x)
    """
    assert found(src, "TFL303", target) == []


def test_303_dropout_in_call_only_breaks_keras3() -> None:
    src = """
        import keras
        class Net(keras.Model):
            def call(self, x, training=False):
                return keras.layers.Dropout(0.5)(x, training=training)
    """
    assert found(src, "TFL303", "3") == [5]
    assert found(src, "TFL303", "2") == []
    (diag,) = analyze(src, "TFL303", "3").diagnostics
    assert diag.message_id == "random"


@BOTH
def test_303_random_augmentation_layers_break_both(target: str) -> None:
    src = """
        import keras
        class Net(keras.Model):
            def call(self, x):
                return keras.layers.RandomFlip()(x)
    """
    assert found(src, "TFL303", target) == [5]


def test_303_lazy_sub_layer_only_breaks_keras3() -> None:
    src = """
        import keras
        class Net(keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.dense = None
            def call(self, x):
                if self.dense is None:
                    self.dense = keras.layers.Dense(1)
                return self.dense(x)
    """
    assert found(src, "TFL303", "2") == []
    (diag,) = analyze(src, "TFL303", "3").diagnostics
    assert (diag.line, diag.message_id) == (9, "lazy")


def test_303_build_called_by_hand_until_built() -> None:
    # ``if not self.built: self.build(shape)`` in call(): build() runs on the first call only,
    # so the layers it makes are made once.
    source = """
        import tensorflow as tf

        class Cross(tf.keras.layers.Layer):
            def build(self, input_shape):
                self._dense = tf.keras.layers.Dense(input_shape[-1])

            def call(self, x):
                if not self.built:
                    self.build(x.shape)
                return x * self._dense(x)

        class Careless(tf.keras.layers.Layer):
            def build(self, input_shape):
                self._dense = tf.keras.layers.Dense(input_shape[-1])

            def call(self, x):
                self.build(x.shape)
                return x * self._dense(x)
    """
    assert found(source, "TFL303") == [15]


@BOTH
def test_303_unguarded_assignment_in_call_replaces_the_layer_each_time(target: str) -> None:
    src = """
        import keras
        class Net(keras.Model):
            def call(self, x):
                self.dense = keras.layers.Dense(1)
                return self.dense(x)
    """
    assert found(src, "TFL303", target) == [5]


# -- TFL304 layer-in-untracked-holder -----------------------------------------------------
@BOTH
def test_304_helper_class_defined_in_another_block(target: str) -> None:
    src = """
        import keras

        class Parts:
            def __init__(self):
                self.hidden = keras.layers.Dense(4)
                self.extra = [keras.layers.Dense(2)]

        class Settings:
            def __init__(self):
                self.units = 4

        class Net(keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.parts = Parts()
                self.many = [Parts() for _ in range(2)]
                self.settings = Settings()
    """
    assert found(src, "TFL304", target) == [16, 17]


def test_304_follows_edits_to_the_helper_in_another_block() -> None:
    """The model's block is unchanged; only the helper's block decides whether it is flagged."""
    model = """
class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.parts = Parts()
"""
    holding = "import keras\nclass Parts:\n    def __init__(self):\n        self.d = keras.layers.Dense(1)\n"
    empty = "import keras\nclass Parts:\n    def __init__(self):\n        self.d = 1\n"
    lint_304 = analyzer("TFL304", "3")
    lines = holding.count("\n")
    assert [d.line for d in lint_304.analyze(holding + model).diagnostics] == [lines + 5]
    assert lint_304.analyze(empty + model).diagnostics == []
    assert [d.line for d in lint_304.analyze(holding + model).diagnostics] == [lines + 5]


@BOTH
def test_304_helper_class_made_of_helpers(target: str) -> None:
    src = """
        import keras
        class Inner:
            def __init__(self):
                self.d = keras.layers.Dense(1)
        class Outer:
            def __init__(self):
                self.inner = Inner()
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.outer = Outer()
    """
    assert found(src, "TFL304", target) == [12]


@BOTH
def test_304_attribute_on_a_plain_object(target: str) -> None:
    src = """
        import types
        import tensorflow as tf
        class Box:
            pass
        class L(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.box = Box()
                self.box.dense = tf.keras.layers.Dense(1)
                self.ns = types.SimpleNamespace()
                self.ns.layers = [tf.keras.layers.Dense(1)]
                self.sub = tf.keras.layers.Dense(3)
                self.sub.extra = tf.keras.layers.Dense(2)
    """
    # Attributes set on a Keras layer (self.sub.extra) are tracked by that layer.
    assert found(src, "TFL304", target) == [10, 12]


def test_304_tf_module_helper_is_a_keras3_problem() -> None:
    src = """
        import tensorflow as tf
        class Stack(tf.Module):
            def __init__(self):
                super().__init__()
                self.d = tf.keras.layers.Dense(1)
        class L(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.h = tf.Module()
                self.h.d = tf.keras.layers.Dense(1)
                self.stack = Stack()
    """
    assert found(src, "TFL304", "3") == [11, 12]
    assert found(src, "TFL304", "2") == []


def test_304_sets_are_a_keras2_problem() -> None:
    src = """
        import tensorflow as tf
        class L(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.a = {tf.keras.layers.Dense(1), tf.keras.layers.Dense(2)}
                self.b = set([tf.keras.layers.Dense(3)])
                self.c = set()
                self.c.add(tf.keras.layers.Dense(4))
    """
    assert found(src, "TFL304", "2") == [6, 6, 7, 9]
    assert found(src, "TFL304", "3") == []


@BOTH
def test_304_lists_dicts_and_tuples_are_tracked(target: str) -> None:
    src = """
        import tensorflow as tf
        Dense = tf.keras.layers.Dense
        class L(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.a = (tf.keras.layers.Dense(12), tf.keras.layers.Dense(11))
                self.b = [tf.keras.layers.Dense(1)]
                self.c = {"x": tf.keras.layers.Dense(1)}
                self.d = []
            def build(self, shape):
                self.d.append(tf.keras.layers.Dense(2))
    """
    assert found(src, "TFL304", target) == []


@BOTH
def test_304_global_and_closure_layers_used_in_call(target: str) -> None:
    src = """
        import keras

        head = keras.layers.Dense(1)
        shared = keras.layers.Dense(3)
        relu = keras.layers.ReLU()
        scale = keras.Variable(2.0)

        class Net(keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.shared = shared

            def call(self, x):
                x = relu(shared(x))
                x = self.finish(x) * scale
                return head(x) + head(x)

            def finish(self, x):
                return head(x)

        def factory(units):
            body = keras.layers.Dense(units)
            class Local(keras.Model):
                def call(self, x):
                    return body(x)
            return Local()
    """
    assert found(src, "TFL304", target) == [16, 17, 26]


@BOTH
def test_304_quiet_for_locals_teachers_and_explicit_training_loops(target: str) -> None:
    src = """
        import tensorflow as tf
        import keras

        teacher = keras.Sequential([keras.layers.Dense(1)])
        generator = keras.Sequential([keras.layers.Dense(2)])

        class Student(keras.Model):
            def call(self, x):
                head = keras.layers.Dense(1) if False else None
                return x

            def train_step(self, data):
                x, _ = data
                soft = teacher(x, training=False)
                return {"soft": soft}

        class Gan(keras.Model):
            def call(self, z):
                return generator(z)

            def train_step(self, z):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(generator(z))
                grads = tape.gradient(loss, generator.trainable_variables)
                return {"loss": loss}

        def build_functional():
            inputs = keras.Input((3,))
            return keras.Model(inputs, teacher(inputs))
    """
    assert found(src, "TFL304", target) == []


@BOTH
def test_304_class_attributes(target: str) -> None:
    src = """
        import tensorflow as tf
        class Net(tf.keras.Model):
            units = 4
            head = tf.keras.layers.Dense(1)
            step = tf.Variable(0)
            act = tf.keras.layers.ReLU()
            def call(self, x):
                return self.head(x)
    """
    assert found(src, "TFL304", target) == [5, 6]


def test_304_keras_version_follows_the_imports() -> None:
    src = """
        import tf_keras
        class L(tf_keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.s = {tf_keras.layers.Dense(1)}
    """
    assert found(src, "TFL304", "auto") == [6]


# -- TFL305 missing-super-init ------------------------------------------------------------
@BOTH
def test_305_flags_layers_and_models(target: str) -> None:
    src = """
        import tensorflow as tf
        import keras

        class A(keras.layers.Layer):
            def __init__(self, units):
                self.units = units

        class B(tf.keras.Model):
            def __init__(self):
                self.d = keras.layers.Dense(1)

        class C(A):
            def __init__(self, units):
                self.more = units
    """
    assert found(src, "TFL305", target) == [6, 10, 14]


@BOTH
def test_305_every_way_of_calling_the_base(target: str) -> None:
    src = """
        import keras

        class A(keras.layers.Layer):
            def __init__(self, **kwargs):
                super(A, self).__init__(**kwargs)

        class B(keras.layers.Layer):
            def __init__(self, **kwargs):
                keras.layers.Layer.__init__(self, **kwargs)

        class C(keras.Model):
            def __init__(self, flag=False, **kwargs):
                if flag:
                    super().__init__(name="c", **kwargs)
                else:
                    super().__init__(**kwargs)

        class NoInit(keras.layers.Layer):
            def call(self, x):
                return x

        class Plain:
            def __init__(self):
                self.x = 1
    """
    assert found(src, "TFL305", target) == []


@BOTH
def test_305_base_set_up_by_a_helper_method_of_the_class(target: str) -> None:
    """tensorflow-hub's KerasLayer hands the base's set-up to a method of its own that
    ``__init__`` calls on ``self``; a helper that never calls it is still a finding."""
    src = """
        import keras

        class Wrapped(keras.layers.Layer):
            def __init__(self, handle, trainable=False, **kwargs):
                self._handle = handle
                self._setup(trainable, **kwargs)

            def _setup(self, trainable, **kwargs):
                super().__init__(trainable=trainable, **kwargs)

        class Forgotten(keras.layers.Layer):
            def __init__(self, handle):
                self._remember(handle)

            def _remember(self, handle):
                self.seen = [handle]
    """
    assert found(src, "TFL305", target) == [13]


def test_305_fix_goes_after_the_docstring_with_the_kwargs_name() -> None:
    src = '''
        import keras
        class A(keras.layers.Layer):
            def __init__(self, units=3, **options):
                """A layer."""
                self.units = units
    '''
    (result,) = fixed(src, "TFL305")
    assert (
        '        """A layer."""\n        super().__init__(**options)\n        self.units = units\n'
        in result
    )
    assert found(result, "TFL305") == []


def test_305_fix_with_a_docstring_only_body_and_without_kwargs() -> None:
    src = '''
        import keras
        class A(keras.layers.Layer):
            def __init__(self):
                """Nothing else."""
    '''
    (result,) = fixed(src, "TFL305")
    assert result.endswith('        """Nothing else."""\n        super().__init__()\n')
    ast.parse(result)
    assert found(result, "TFL305") == []


def test_305_no_fix_for_a_one_line_body() -> None:
    src = """
        import keras
        class A(keras.layers.Layer):
            def __init__(self): self.x = 1
    """
    assert found(src, "TFL305") == [4]
    assert fixed(src, "TFL305") == []


# -- TFL306 sublayer-tf1-layers -----------------------------------------------------------
TF1_LAYERS_SRC = """
    import tensorflow as tf
    from tensorflow.compat.v1 import layers as v1_layers
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.compat.v1.layers.Dense(1)
        def call(self, x):
            x = tf.compat.v1.layers.dense(x, 4)
            x = v1_layers.conv1d(x, 2, 1)
            y = tf.compat.v1.layers.Dense(2)(x)
            return self.d(y)
"""


def test_306_everything_fails_on_keras3() -> None:
    assert found(TF1_LAYERS_SRC, "TFL306", "3") == [7, 9, 10, 11]


def test_306_keras2_tracks_a_tf1_layer_object_kept_on_self() -> None:
    assert found(TF1_LAYERS_SRC, "TFL306", "2") == [9, 10, 11]


@BOTH
def test_306_compat_v1_imported_as_tf_and_quiet_outside_models(target: str) -> None:
    src = """
        import tensorflow.compat.v1 as tf
        def tf1_graph(x):
            return tf.layers.dense(x, 1)
        class Net(tf.keras.Model):
            def call(self, x):
                return tf.layers.dense(x, 1)
    """
    assert found(src, "TFL306", target) == [7]


def test_306_messages_name_the_keras_replacement() -> None:
    src = """
        import tensorflow as tf
        class Net(tf.keras.Model):
            def call(self, x):
                return tf.compat.v1.layers.max_pooling2d(x, 2, 2)
    """
    (diag,) = analyze(src, "TFL306", "3").diagnostics
    assert diag.args["layer"] == "MaxPooling2D"
    assert diag.args["api"] == "tf.compat.v1.layers.max_pooling2d"


def test_306_tf2_spelling_is_left_to_tfl601() -> None:
    src = """
        import tensorflow as tf
        class Net(tf.keras.Model):
            def call(self, x):
                return tf.layers.dense(x, 1)
    """
    assert found(src, "TFL306", "3") == []


# -- robustness ----------------------------------------------------------------------------
@BOTH
def test_odd_code_does_not_crash_the_family(target: str) -> None:
    src = """
        import tensorflow as tf
        import keras
        class Weird(keras.layers.Layer):
            @staticmethod
            def make():
                return tf.Variable(1.0)
            def __init__(*args):
                (lambda: keras.layers.Dense(1))()
                args[0].x = [tf.Variable(2.0)]
            def call(this, x):
                this.a.b.c = keras.layers.Dense(2)
                getattr(this, "z")(x)
                return [keras.layers.Dense(1) for _ in range(2)][0](x)
        class Empty(keras.Model):
            x = y = keras.layers.Dense(1)
    """
    lint(src, ("TFL301", "TFL302", "TFL303", "TFL304", "TFL305", "TFL306"), target)


def test_tfl303_a_local_layer_without_state_made_in_call() -> None:
    # Seen in keras-hub: a stateless helper layer built inside another layer's call().
    source = """
        import keras
        from keras import ops

        class Rotate(keras.layers.Layer):
            def call(self, x):
                return ops.flip(x, axis=-1)

        class Scaled(keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=shape[-1:])

            def call(self, x):
                return x * self.w

        class Block(keras.layers.Layer):
            def call(self, x):
                y = Rotate()(x)
                return Scaled()(y)
    """
    assert [line for line, _ in lint(source, "TFL303")] == [19]
