"""Hard cases for the Keras 3 removal rules (TFL607-TFL613) and TFL308 super-init-misused.

Every case states what TF 2.21 does; the facts behind them are in the catalog entries and were
checked with Keras 3.15 and tf-keras 2.21.
"""

from __future__ import annotations

import textwrap

from tests.helpers import analyze, lint
from tflsp.analysis.fixes import apply_edits


def hits(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, code, target) if c == code]


def variants(source: str, code: str, target: str = "3") -> list[str]:
    return [d.message_id for d in analyze(source, code, target).diagnostics if d.code == code]


def fixed(source: str, code: str, target: str = "3") -> str:
    text = textwrap.dedent(source)
    diagnostics = analyze(source, code, target).diagnostics
    edits = [e for d in diagnostics if d.fix is not None for e in d.fix.edits]
    return apply_edits(text, edits)


# -- TFL607 keras3-removed-model-method ------------------------------------------------------
def test_removed_model_methods_on_known_models() -> None:
    src = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras.models import load_model
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.fit_generator(batches(), steps_per_epoch=2)
    loaded = load_model("m.keras")
    labels = loaded.predict_classes(np.ones((1, 3)))
    probs = loaded.predict_proba(np.ones((1, 3)))
    model.reset_states()
    print(model.output_shape)
    """
    assert hits(src, "TFL607") == [6, 8, 9, 10]
    assert variants(src, "TFL607") == [
        "generator",
        "predict_classes",
        "predict_proba",
        "reset_states",
    ]


def test_unknown_receivers_only_for_names_no_other_library_has() -> None:
    src = """
    def report(model, clf, x):
        model.predict_classes(x)
        model.fit_generator(x)
        clf.predict_proba(x)
    """
    assert hits(src, "TFL607") == [3, 4]


def test_a_subclass_that_defines_the_method_is_left_alone() -> None:
    src = """
    import tensorflow as tf
    class Classifier(tf.keras.Model):
        def predict_classes(self, x):
            return tf.argmax(self(x), axis=-1)
    model = Classifier()
    model.predict_classes(tf.ones((1, 3)))
    """
    assert hits(src, "TFL607") == []


def test_generator_rename_fix_only_when_fit_takes_every_keyword() -> None:
    src = """
    from tensorflow import keras
    model = keras.Sequential([keras.layers.Dense(2)])
    model.fit_generator(gen, steps_per_epoch=2, epochs=3)
    model.fit_generator(gen, steps_per_epoch=2, workers=4)
    """
    out = fixed(src, "TFL607")
    assert "model.fit(gen, steps_per_epoch=2, epochs=3)" in out
    assert "model.fit_generator(gen, steps_per_epoch=2, workers=4)" in out


def test_keras2_target_reports_what_tf_keras_lacks_or_deprecates() -> None:
    src = """
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.fit_generator(gen, steps_per_epoch=2)
    model.predict_classes(x)
    model.reset_states()
    """
    assert hits(src, "TFL607", target="2") == [4, 5]


# -- TFL610 keras3-removed-layer-member ------------------------------------------------------
def test_removed_layer_and_metric_members() -> None:
    src = """
    import tensorflow as tf
    class Counter(tf.keras.layers.Layer):
        def call(self, x):
            self.add_update(self.count.assign_add(1.0))
            return x
    dense = tf.keras.layers.Dense(2)
    print(dense.output_shape, dense.get_output_at(0))
    loss_metric = tf.keras.metrics.Mean()
    loss_metric.reset_states()
    """
    assert hits(src, "TFL610") == [5, 8, 8, 10]
    assert "loss_metric.reset_state()" in fixed(src, "TFL610")
    assert hits(src, "TFL610", target="2") == []


def test_members_a_local_class_defines_and_other_rules_members() -> None:
    src = """
    import tensorflow as tf
    class Stateful(tf.keras.layers.Layer):
        def add_update(self, op):
            return op
        def call(self, x):
            self.add_update(x)
            return x
    opt = tf.keras.optimizers.Adam()
    print(opt.lr)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    print(model.output_shape)
    """
    assert hits(src, "TFL610") == []


# -- TFL609 keras3-removed-name ----------------------------------------------------------------
def test_removed_names_in_the_spelling_the_code_uses() -> None:
    src = """
    import keras
    import tensorflow as tf
    a = keras.backend.mean(x)
    b = tf.keras.backend.mean(x)
    c = tf.keras.layers.experimental.preprocessing.Rescaling(1 / 255)
    d = tf.keras.backend.get_session()
    """
    # tf.keras.backend under Keras 3 is a compatibility module that still has mean();
    # keras.backend.mean is TFL602's (one code per finding).
    assert hits(src, "TFL609") == [6, 7]
    assert variants(src, "TFL609") == ["default", "session"]
    assert "tf.keras.layers.Rescaling(1 / 255)" in fixed(src, "TFL609")


def test_keras_backend_functions_stay_tfl602s() -> None:
    src = """
    import keras
    from keras import backend as K
    a = K.mean(x)
    b = keras.backend.sum(x)
    c = K.get_session()
    """
    found = lint(src, ("TFL602", "TFL609"))
    assert found == [(4, "TFL602"), (5, "TFL602"), (6, "TFL609")]
    assert lint(src, ("TFL602", "TFL609"), "2") == [(4, "TFL602"), (5, "TFL602")]


def test_imports_of_removed_names() -> None:
    src = """
    from tensorflow.keras.layers.experimental.preprocessing import Rescaling, RandomFlip
    from keras.preprocessing.image import ImageDataGenerator
    from keras.utils import np_utils
    from tensorflow.keras.layers import Dense
    """
    assert hits(src, "TFL609") == [2, 3, 4]
    assert variants(src, "TFL609") == ["default", "preprocessing", "gone"]
    assert "from tensorflow.keras.layers import Rescaling, RandomFlip" in fixed(src, "TFL609")


def test_guarded_uses_and_the_keras2_target_are_left_alone() -> None:
    src = """
    import tensorflow as tf
    try:
        from tensorflow.keras.layers.experimental import preprocessing
    except ImportError:
        preprocessing = None
    try:
        session = tf.keras.backend.get_session()
    except AttributeError:
        session = None
    layer = tf.keras.layers.experimental.preprocessing.Rescaling(1.0)
    """
    assert hits(src, "TFL609") == [11]
    assert hits(src, "TFL609", target="2") == []


# -- TFL612 compat-v1-keras-on-keras3 ----------------------------------------------------------
def test_compat_v1_keras_helpers_only_tf_keras_has() -> None:
    src = """
    import tensorflow as tf
    class Dense(tf.keras.layers.Layer):
        @tf.compat.v1.keras.utils.track_tf1_style_variables
        def call(self, x):
            return x
    sess = tf.compat.v1.keras.backend.get_session()
    layer = tf.compat.v1.keras.layers.Dense(3)
    """
    assert hits(src, "TFL612") == [4, 7]
    assert variants(src, "TFL612") == ["track_tf1", "session"]
    assert hits(src, "TFL612", target="2") == []


# -- TFL613 private-keras-import ---------------------------------------------------------------
def test_private_keras_modules() -> None:
    src = """
    import keras.engine as KE
    from keras.engine.topology import Layer, InputSpec
    from tensorflow.python.keras.layers import Dense
    from keras.src.layers import Dense as D3
    from keras.engine import data_adapter
    class Proposal(KE.Layer):
        pass
    """
    for target in ("3", "2"):
        assert hits(src, "TFL613", target) == [2, 3, 4, 6]
    assert variants(src, "TFL613") == ["no_public", "default", "python_keras", "no_public"]
    out = fixed(src, "TFL613")
    assert "from keras.layers import Layer, InputSpec" in out
    assert "from tensorflow.keras.layers import Dense" in out


def test_a_missing_name_read_as_an_attribute_is_not_a_private_module() -> None:
    src = """
    from keras import ops
    x = ops.random.uniform((2,))
    try:
        import keras.engine as KE
    except ImportError:
        KE = None
    """
    assert hits(src, "TFL613") == []
    assert hits(src, "TFL609") == [3]


# -- TFL608 keras3-removed-argument ------------------------------------------------------------
def test_keywords_keras3_refuses() -> None:
    src = """
    import tensorflow as tf
    from tensorflow import keras
    model = keras.Sequential([keras.layers.Dense(2, batch_input_shape=(None, 3))])
    model.fit(x, y, workers=4, nb_epoch=3)
    ckpt = keras.callbacks.ModelCheckpoint("m.keras", period=2)
    inp = keras.Input((3,))
    net = keras.Model(input=inp, output=keras.layers.Dense(2)(inp))
    """
    assert hits(src, "TFL608") == [4, 5, 5, 6, 8, 8]
    assert variants(src, "TFL608") == [
        "batch_input_shape",
        "multiprocessing",
        "keras1",
        "period",
        "keras1",
        "keras1",
    ]
    out = fixed(src, "TFL608")
    assert "model.fit(x, y, workers=4, epochs=3)" in out
    assert "keras.Model(inputs=inp, outputs=" in out


def test_keywords_keras3_still_reads_or_other_rules_own() -> None:
    src = """
    import tensorflow as tf
    from tensorflow import keras
    keras.layers.Dense(2, input_shape=(3,))
    keras.layers.LSTM(4, implementation=2)
    keras.optimizers.Adam(lr=0.1)
    keras.optimizers.Adam(decay=0.1)
    inp = keras.Input((3,))
    keras.Model(inputs=inp, outputs=inp, name="identity", trainable=False)
    model = keras.Sequential([keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    model.evaluate(x, y, workers=2)
    def train(net):
        net.fit(x, y, workers=4)
    class Custom(keras.Model):
        def fit(self, x, workers=1):
            return super().fit(x)
    Custom().fit(x, workers=2)
    """
    assert hits(src, "TFL608") == []
    assert hits(src, "TFL608", target="2") == []


def test_assigning_a_removed_keras_name_or_member_is_not_using_it() -> None:
    # Held-out keras-cv: a Keras 2 path gives tf.keras a namespace it lacks, under a
    # negative hasattr() test; code sets a member Keras 3 removed.  Stores are not reads.
    src = """
    import types
    from tensorflow import keras
    if not hasattr(keras, "saving"):
        keras.saving = types.SimpleNamespace()
    keras.layers.AbstractRNNCell = keras.layers.Layer
    cell = keras.layers.LSTMCell(4)
    mask = cell.get_dropout_mask_for_cell
    cell.get_dropout_mask_for_cell = None
    base = keras.layers.AbstractRNNCell
    """
    assert hits(src, "TFL609") == [10]
    assert hits(src, "TFL610") == [8]


# -- TFL611 keras3-moved-positional-argument ---------------------------------------------------
def test_positional_arguments_that_moved() -> None:
    src = """
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile("adam", "mse", ["mae"])
    model.compile("adam", "mse")
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    class Scale(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight("w", (shape[-1],))
            self.b = self.add_weight((shape[-1],), initializer="zeros")
    class Total(tf.keras.metrics.Metric):
        def __init__(self):
            super().__init__("total")
    """
    assert hits(src, "TFL611") == [4, 9, 13]
    assert variants(src, "TFL611") == ["default", "keyword_only", "default"]
    out = fixed(src, "TFL611")
    assert 'model.compile("adam", "mse", metrics=["mae"])' in out
    assert 'self.add_weight(name="w", shape=(shape[-1],))' in out
    assert hits(src, "TFL611", target="2") == []


def test_super_init_reaching_an_own_base_init_is_not_keras() -> None:
    # Held-out tensorflow-addons: a family of layers shares a base class of the package whose
    # __init__ (wrapped by a type-checking decorator) takes the positionals; super() reaches
    # that __init__, not Keras's, decorated or not.  An unknown decorator leaves it unknown.
    src = """
    import tensorflow as tf
    from checks import checked
    class Reduce(tf.keras.layers.Layer):
        @checked
        def __init__(self, fn, size, layout=None, **kwargs):
            super().__init__(**kwargs)
            self.fn = fn
    class SumReduce(Reduce):
        def __init__(self, size, **kwargs):
            super().__init__(tf.reduce_sum, size, **kwargs)
    class Counter(tf.keras.metrics.Metric):
        def __init__(self, classes, mode, name="counter"):
            super().__init__(name=name)
    class TopCounter(Counter):
        @checked
        def __init__(self, classes):
            super().__init__(classes, "top")
    class Inherits(SumReduce):
        def __init__(self):
            super().__init__(3)
    class NoInit(tf.keras.metrics.Metric):
        def result(self):
            return 0.0
    class Named(NoInit):
        def __init__(self):
            super().__init__("named")
    """
    # Only the last one reaches Keras's Metric.__init__, whose first positional is dtype now.
    assert hits(src, "TFL611") == [27]


def test_renamed_parameters_in_place_are_not_moved() -> None:
    src = """
    import keras
    mha = keras.layers.MultiHeadAttention(2, 4)
    mha.build((1, 3, 4))
    act = keras.activations.deserialize("relu")
    """
    assert hits(src, "TFL611") == []


# -- TFL308 super-init-misused -----------------------------------------------------------------
def test_super_init_misused() -> None:
    src = """
    import tensorflow as tf
    class A(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super(tf.keras.layers.Layer, self).__init__(**kwargs)
    class B(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__(self)
    class C(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            self.supports_masking = True
            self.units = 3
            super().__init__(**kwargs)
            self.trainable = False
    """
    for target in ("3", "2"):
        assert hits(src, "TFL308", target) == [5, 8, 11]
    out = fixed(src, "TFL308")
    assert "super().__init__(**kwargs)" in out.split("class B")[0]
    assert "super().__init__()" in out.split("class B")[1]


def test_super_init_right_uses() -> None:
    src = """
    import tensorflow as tf
    class Base(tf.keras.layers.Layer):
        pass
    class Child(Base):
        def __init__(self, **kwargs):
            super(Base, self).__init__(**kwargs)
    class Own(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super(Own, self).__init__(**kwargs)
    class Plain:
        def __init__(self):
            self.supports_masking = True
            super().__init__()
    """
    assert hits(src, "TFL308") == []


def test_super_init_self_on_a_model_fails_on_keras3_only() -> None:
    # tf-keras's Model.__init__ drops extra positional arguments (tf-keras 2.21: the model
    # trains); Keras 3 raises TypeError.  A tf_keras.Model base runs on Keras 2 whatever the
    # target (seen in tf-models-official's BertPretrainerV2).
    src = """
    import tensorflow as tf
    import tf_keras
    class Rnn(tf.keras.Model):
        def __init__(self, cell):
            super(Rnn, self).__init__(self)
            self.cell = cell
    class Bert(tf_keras.Model):
        def __init__(self, name="bert", **kwargs):
            super().__init__(self, name=name, **kwargs)
    class Shift(tf_keras.layers.Layer):
        def __init__(self):
            super().__init__(self)
    """
    assert hits(src, "TFL308") == [6, 13]
    assert hits(src, "TFL308", target="2") == [13]


def test_functional_models_keep_input_and_output_shape() -> None:
    # keras.Model(inputs, outputs) and load_model() give a Functional model, which has
    # input_shape/output_shape on Keras 3 (checked); a subclassed model and a layer do not.
    src = """
    import keras
    inp = keras.Input((3,))
    functional = keras.Model(inp, keras.layers.Dense(2)(inp))
    loaded = keras.models.load_model("m.keras")
    print(functional.output_shape, loaded.input_shape)
    class Sub(keras.Model):
        def call(self, x):
            return x
    print(Sub().input_shape, keras.layers.Dense(2).output_shape)
    """
    assert hits(src, "TFL610") == [10, 10]


def test_subclass_built_functionally_keeps_input_shape() -> None:
    # Held-out keras-cv: model classes build their graph in __init__ and hand inputs and
    # outputs to super().__init__; Keras 3 then inserts Functional into the class's bases,
    # so input_shape exists there (checked on Keras 3.15), also for a subclass of theirs.
    src = """
    import keras
    class Backbone(keras.Model):
        def __init__(self, width=8, **kwargs):
            x = keras.Input((None, 3))
            y = keras.layers.Dense(width)(x)
            super().__init__(inputs=x, outputs=y, **kwargs)
        def get_config(self):
            return {"input_shape": self.input_shape[1:]}
    class Small(Backbone):
        def describe(self):
            return self.output_shape
    class Pair(keras.Model):
        def __init__(self, x, y):
            super().__init__(x, y)
    class Plain(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
        def describe(self):
            return self.input_shape
    print(Small().input_shape, Pair(1, 2).output_shape, Plain().output_shape)
    """
    assert hits(src, "TFL610") == [20, 21]


def test_names_the_tf_keras_shim_lacks_point_to_standalone_keras() -> None:
    # Under Keras 3, tf.keras.losses lacks mean_squared_error while keras.losses has it;
    # tf.keras.backend.experimental is a module with no keras.ops counterpart.
    src = """
    import tensorflow as tf
    loss = tf.keras.losses.mean_squared_error(y, p)
    tf.keras.backend.experimental.enable_tf_random_generator()
    """
    result = analyze(src, "TFL609")
    found = [(d.line, d.message_id, d.args.get("replacement")) for d in result.diagnostics]
    assert found == [
        (3, "default", "keras.losses.mean_squared_error"),
        (4, "no_replacement", ""),
    ]


def test_compat_v2_is_tensorflow_2_not_a_compat_keras() -> None:
    # `import tensorflow.compat.v2 as tf` is TF2: tf.keras.experimental.CosineDecay is a Keras 2
    # name Keras 3 moved (TFL609), not a tf.compat.v1.keras helper (TFL612).
    src = """
    import tensorflow.compat.v2 as tf
    import tensorflow.compat.v1 as tf1
    fn = tf.keras.experimental.CosineDecay(0.1, decay_steps=10)
    session = tf1.keras.backend.get_session()
    """
    assert lint(src, ("TFL609", "TFL612")) == [(4, "TFL609"), (5, "TFL612")]
    assert "tf.keras.optimizers.schedules.CosineDecay(0.1" in fixed(src, "TFL609")


def test_hasattr_guards_leave_the_name_alone() -> None:
    # tf-agents tests hasattr(tf.keras.optimizers, "experimental") before reading it.
    src = """
    import tensorflow as tf
    def convert(optimizer, model):
        if hasattr(tf.keras.optimizers, "experimental") and isinstance(
            optimizer, tf.keras.optimizers.experimental.Optimizer
        ):
            return optimizer
        if hasattr(model, "predict_classes"):
            return model.predict_classes(optimizer)
        return tf.keras.optimizers.experimental.SGD()
    """
    assert hits(src, "TFL609") == [10]
    assert hits(src, "TFL607") == []


def test_tf_losses_is_tf_keras_losses_not_tf1() -> None:
    """``tf.losses`` is ``tf.keras.losses`` on TF 2 (tf-agents' bandit agents):
    ``mean_squared_error`` is tf-keras's loss function, which Keras 3's ``tf.losses`` lacks
    (TFL609 with the Keras 3 home, never TFL601); a TF1 loss gone from both is TFL601's."""
    source = """
        import tensorflow as tf

        def loss(labels, predictions):
            a = tf.losses.mean_squared_error(labels, predictions)
            b = tf.metrics.mean_squared_error(labels, predictions)
            c = tf.losses.softmax_cross_entropy(labels, predictions)
            return a + b + c + tf.losses.MeanSquaredError()(labels, predictions)
    """
    assert hits(source, "TFL609") == [5, 6]
    assert hits(source, "TFL601") == [7]
    assert hits(source, "TFL609", target="2") == []
    assert hits(source, "TFL601", target="2") == [7]
    (first, _) = [d for d in analyze(source, "TFL609").diagnostics if d.code == "TFL609"]
    assert first.args["name"] == "tf.losses.mean_squared_error"
    assert first.args["replacement"] == "keras.losses.mean_squared_error"
    assert (first.line, first.column, first.end_column) == (5, 8, 36)


def test_compatibility_branches_for_older_tensorflow_are_left_alone() -> None:
    """Imports of old Keras internals in the branches of a version test that TensorFlow 2.21
    never takes (``Version(tf.__version__).release >= Version("2.13").release`` is true there),
    and the ``except ImportError:`` fallback of another spelling, never run (tensorflow-addons'
    and keras-cv's compatibility shims).  The same imports outside such branches are findings."""
    src = """
    import tensorflow as tf
    from packaging.version import Version

    if Version(tf.__version__).release >= Version("2.13").release:
        from keras.src.engine import keras_tensor
    elif Version(tf.__version__) >= Version("2.5"):
        from keras.engine import keras_tensor
    else:
        from tensorflow.python.keras.engine import keras_tensor

    try:
        from keras.src.utils import tf_utils
    except ImportError:
        from keras.utils import tf_utils

    if Version(tf.__version__).release < Version("2.13").release:
        from keras.engine import base_layer
    else:
        from keras.engine import input_spec
    """
    assert hits(src, "TFL613") == [20]
    assert hits(src, "TFL609") == []


def test_importable_submodules_that_are_not_attributes_yet() -> None:
    # Keras 3's tf.keras has no `saving` attribute until the submodule is imported, but the
    # import statement finds it on the package's path (keras-tuner's backend shim does this).
    src = """
    from tensorflow.keras import saving
    import tensorflow.keras.saving as tks
    model = saving.load_model("m.keras")
    tks.register_keras_serializable()(object)
    from tensorflow.keras import sessions
    """
    assert hits(src, "TFL609") == [6]
