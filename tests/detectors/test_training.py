"""Training family, group B (TFL811-TFL820): hard cases, aliases, unknown values, Keras 2/3."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyze, analyzer, lint
from tflsp.analysis.fixes import apply_edits

CODES = tuple(f"TFL8{n}" for n in range(11, 21))


def found(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, CODES, target) if c == code]


def fixed(source: str, code: str) -> str:
    text = textwrap.dedent(source)
    diagnostics = [d for d in analyze(source, CODES).diagnostics if d.code == code]
    assert len(diagnostics) == 1 and diagnostics[0].fix is not None
    return apply_edits(text, diagnostics[0].fix.edits)


# -- TFL811 monitor-not-logged ----------------------------------------------------------------
MONITORED = """
    from tensorflow.keras.callbacks import EarlyStopping as Stop
    from tensorflow.keras.callbacks import ModelCheckpoint
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile("adam", "mse", metrics=["acc"])
    stop = Stop(monitor="val_accuracy", patience=3)
    every = ModelCheckpoint("m.keras", monitor="val_nothing")

    def train(x, y, xv, yv):
        model.fit(x, y, validation_data=(xv, yv), callbacks=[stop, every])
"""


@pytest.mark.parametrize("target", ["3", "2"])
def test_monitor_alias_of_a_compiled_metric_is_flagged_on_both_kerases(target: str) -> None:
    # ModelCheckpoint without save_best_only never reads its monitor: silent.
    assert found(MONITORED, "TFL811", target) == [8]


def test_monitor_fix_spells_the_logged_name() -> None:
    assert 'Stop(monitor="val_acc", patience=3)' in fixed(MONITORED, "TFL811")


def test_val_name_without_validation_data_on_an_unknown_model() -> None:
    source = """
        import tensorflow as tf

        def train(model, x, y):
            stop = tf.keras.callbacks.EarlyStopping(monitor="val_auc")
            lr = tf.keras.callbacks.ReduceLROnPlateau(monitor="auc")
            model.fit(x, y, epochs=3, callbacks=[stop, lr])
    """
    # Only the val_ name is certain: 'auc' may be a compiled metric of a model we cannot see.
    assert found(source, "TFL811") == [5]


def test_monitor_silent_when_validation_or_metrics_are_unknown() -> None:
    assert not found(
        """
        from tensorflow import keras

        model = keras.Sequential([keras.layers.Dense(1)])
        model.compile("adam", "mse", metrics=[keras.metrics.AUC()])
        stop = keras.callbacks.EarlyStopping(monitor="val_auc")
        lr = keras.callbacks.ReduceLROnPlateau(monitor="val_loss")

        def train(x, y, **options):
            model.fit(x, y, validation_split=0.2, callbacks=[stop])
            model.fit(x, y, callbacks=[lr], **options)
    """,
        "TFL811",
    )


def test_monitor_of_a_named_metric_on_a_functional_model() -> None:
    source = """
        import keras

        inputs = keras.Input((4,))
        model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
        model.compile(loss="mse", metrics=[keras.metrics.RootMeanSquaredError(name="rmse")])
        good = keras.callbacks.EarlyStopping(monitor="val_rmse")
        bad = keras.callbacks.EarlyStopping(monitor="val_root_mean_squared_error")
        model.fit(x, y, validation_split=0.1, callbacks=[good, bad])
    """
    assert found(source, "TFL811") == [8]


# -- TFL812 preprocessing-layer-not-adapted --------------------------------------------------
def test_unadapted_layers_through_aliases() -> None:
    source = """
        import tensorflow.compat.v2 as tf
        from tensorflow.keras.layers.experimental import preprocessing
        from keras import layers as L

        a = preprocessing.Normalization()
        b = tf.keras.layers.StringLookup(vocabulary=["a"])
        c = L.TextVectorization(max_tokens=10)
        d = L.Discretization(bin_boundaries=None)
        e = L.Normalization(mean=0.0, variance=1.0)
        f = L.IntegerLookup(**options)
        g = L.Normalization(-1)
    """
    assert found(source, "TFL812") == [6, 8, 9]
    messages = {d.line: d.message_id for d in analyze(source, CODES).diagnostics}
    assert messages == {6: "default", 8: "lookup", 9: "discretization"}


def test_any_adapt_or_restore_in_the_module_keeps_it_silent() -> None:
    for later in ("model.layers[0].adapt(x)", "model.load_weights('w.h5')", "v.set_vocabulary(w)"):
        source = f"""
            from tensorflow import keras

            model = keras.Sequential([keras.layers.Normalization(), keras.layers.Dense(1)])

            def prepare(x, w, v):
                {later}
        """
        assert not found(source, "TFL812"), later


# -- datasets given to fit (TFL813, TFL815, TFL816, TFL817, TFL820) ---------------------------
DATASETS = """
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras as K

    x = np.zeros((100, 4))
    ds = tf.data.Dataset.from_tensor_slices((x, x))
    model = K.Sequential([K.layers.Dense(1)])
    model.fit(ds, epochs=2)
    b = ds.batch(10)
    model.fit(b, steps_per_epoch=11)
    model.fit(b, steps_per_epoch=10)
    model.fit(b.repeat(), steps_per_epoch=100)
    model.fit(b, batch_size=32)
    model.evaluate(b, x)
    model.predict(b, batch_size=None)

    def with_parameter(d):
        model.fit(d, validation_split=0.2)

    def in_a_function():
        d = tf.data.Dataset.range(50).map(lambda i: (i, i))
        if x.any():
            d = d.batch(5)
        model.fit(d)
        e = tf.data.Dataset.range(50)
        e = e.batch(5).take(3)
        model.fit(e, steps_per_epoch=4, validation_split=0.1)
        model.fit(e, validation_split=0.0, y=None)
"""


def test_dataset_arguments_across_blocks_branches_and_functions() -> None:
    assert lint(DATASETS, CODES) == [
        (9, "TFL820"),
        (11, "TFL815"),
        (14, "TFL816"),
        (15, "TFL817"),
        (28, "TFL815"),
        (28, "TFL813"),
    ]


def test_batch_size_fix_removes_the_argument() -> None:
    source = """
        import tensorflow as tf

        def train(model, x, y):
            ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
            model.compile(optimizer="sgd", loss="mse")
            model.fit(ds, batch_size=64, epochs=1)
    """
    assert "model.fit(ds, epochs=1)" in fixed(source, "TFL816")


def test_receiver_must_be_a_model_or_compiled_here() -> None:
    source = """
        import tensorflow as tf

        def train(model, estimator, x, y):
            ds = tf.data.Dataset.from_tensor_slices(x).batch(8)
            estimator.fit(ds, y)
            model.compile(optimizer="sgd", loss="mse")
            model.fit(ds, y)
    """
    assert found(source, "TFL817") == [8]


def test_python_generators_take_no_targets_nor_validation_split() -> None:
    source = """
        import numpy as np
        from tensorflow import keras

        def batches(x):
            while True:
                yield x[:8], x[:8]

        def not_a_generator(x):
            return x

        model = keras.Sequential([keras.layers.Dense(1)])
        model.fit(batches(np.zeros(4)), np.zeros(4), steps_per_epoch=2, validation_split=0.2)
        model.fit(not_a_generator(np.zeros(4)), np.zeros(4), validation_split=0.2)
        model.fit((b for b in range(3)), batch_size=4)
    """
    result = [(d.line, d.code, d.args.get("source")) for d in analyze(source, CODES).diagnostics]
    assert result == [
        (13, "TFL817", "a Python generator"),
        (13, "TFL813", "a Python generator"),
        (15, "TFL816", "a Python generator"),
    ]


def test_keras_tuner_search_takes_fit_arguments() -> None:
    source = """
        import keras_tuner as kt
        import tensorflow as tf

        def tune(build, index, frame, labels):
            x_ds = tf.data.Dataset.from_tensor_slices(dict(frame)).batch(32)
            tuner = kt.RandomSearch(build, objective="val_loss", max_trials=3)
            tuner.search(x_ds, labels, epochs=5)
            index.search(x_ds, labels)
    """
    assert found(source, "TFL817") == [8]


def test_keras_utilities_batch_unless_told_not_to() -> None:
    source = """
        import keras

        model = keras.models.load_model("m.keras")
        images = keras.utils.image_dataset_from_directory("data")
        single = keras.utils.image_dataset_from_directory("data", batch_size=None)
        model.fit(images, steps_per_epoch=1000)
        model.fit(single)
    """
    # The number of files is unknown: no TFL815.
    assert lint(source, CODES) == [(8, "TFL820")]


def test_discarded_batch_is_reported_with_an_assigning_fix() -> None:
    source = """
        import tensorflow as tf

        def train(model, x, y):
            ds = tf.data.Dataset.from_tensor_slices((x, y))
            ds.batch(32)
            model.compile(optimizer="sgd", loss="mse")
            model.fit(ds)
    """
    result = analyze(source, CODES).diagnostics
    assert [(d.line, d.message_id) for d in result] == [(6, "discarded")]
    assert "    ds = ds.batch(32)\n" in fixed(source, "TFL820")


def test_an_edit_in_another_block_rechecks_the_fit_call() -> None:
    before = textwrap.dedent(
        """
        import tensorflow as tf
        from tensorflow import keras

        model = keras.Sequential([keras.layers.Dense(1)])
        ds = tf.data.Dataset.range(10)
        model.fit(ds)
        """
    )
    after = before.replace("Dataset.range(10)", "Dataset.range(10).batch(2)")
    lint_session = analyzer(CODES)
    assert [d.code for d in lint_session.analyze(before).diagnostics] == ["TFL820"]
    assert lint_session.analyze(after).diagnostics == []
    assert [d.code for d in lint_session.analyze(before).diagnostics] == ["TFL820"]


# -- TFL814 training-flag-in-custom-loop -----------------------------------------------------
def test_training_flag_on_sequential_add_and_subclass() -> None:
    source = """
        import tensorflow as tf
        from tensorflow import keras

        model = keras.Sequential()
        model.add(keras.layers.Dense(4))
        model.add(keras.layers.BatchNormalization())
        plain = keras.Sequential([keras.layers.Dense(1)])
        drop = keras.Sequential([keras.layers.Dense(1), keras.layers.Dropout(0.2)])

        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.drop = keras.layers.Dropout(0.5)

            def call(self, x, is_training=False):
                return self.drop(x, training=is_training)

        net = Net()

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                a = model(x)
                b = plain(x)
                c = drop(x, training=True)
                d = drop(x, False)
                e = drop(
                    x,
                )
                f = net(x)
                g = net(x, is_training=True)
            return a, b, c, d, e, f, g
    """
    assert found(source, "TFL814") == [24, 28, 31]
    assert "x, training=True,\n" in fixed(
        source.replace("a = model(x)", "a = 0").replace("f = net(x)", "f = 0"), "TFL814"
    )


def test_training_flag_silent_outside_tapes_and_for_unknown_models() -> None:
    assert not found(
        """
        import tensorflow as tf
        from tensorflow import keras

        drop = keras.Sequential([keras.layers.Dropout(0.2)])
        y = drop(x)

        def step(net, x):
            with tf.GradientTape() as tape:
                return net(x)
    """,
        "TFL814",
    )


# -- TFL818 input-rank-mismatch --------------------------------------------------------------
def test_input_rank_from_literal_shapes() -> None:
    source = """
        import tensorflow as tf
        from tensorflow.keras import layers, models
        from tensorflow.keras.layers import LSTM, Dense

        m1 = models.Sequential([layers.Conv2D(32, 3, input_shape=(28, 28)), layers.Flatten()])
        m2 = tf.keras.Sequential([tf.keras.Input(shape=(10, 3)), LSTM(8), LSTM(4), Dense(1)])
        m3 = tf.keras.Sequential([tf.keras.Input((10, 3)), LSTM(8, return_sequences=True), LSTM(4)])
        model = models.Sequential()
        model.add(LSTM(50, input_shape=(X.shape[1],)))
        model.add(LSTM(50, input_shape=X.shape[1:]))
        model.add(layers.Bidirectional(LSTM(50), input_shape=(60, 1)))
        m4 = models.Sequential([layers.Embedding(100, 8), LSTM(4)])
        m5 = models.Sequential([layers.Conv2D(8, 3, input_shape=(28, 28, 1)), layers.MaxPooling2D(), layers.Conv2D(4, 3)])
        m6 = models.Sequential([tf.keras.Input((10,)), layers.Dense(4), layers.Custom(), LSTM(4)])
    """
    assert found(source, "TFL818") == [6, 7, 10]
    hints = {d.line: d.args["hint"] for d in analyze(source, CODES).diagnostics}
    assert hints[7] == "set return_sequences=True on the LSTM before it"
    assert "(28, 28, 1)" in hints[6]


def test_input_rank_in_the_functional_api() -> None:
    source = """
        from tensorflow.keras import layers
        from tensorflow.keras.layers import LSTM, Input, Dense, Conv1D

        seq = Input((10,))
        a = LSTM(8)(seq)
        b = layers.Bidirectional(LSTM(8))(Input(shape=(10, 3)))
        d = LSTM(4, return_sequences=True)(Input((10, 3)))
        e = LSTM(4)(d)
        conv = Conv1D(8, 3)
        f = conv(seq)
        g = Conv1D(8, 3)(Input((None, 4)))
        h = layers.Conv2D(4, 3)(Input(shape=(28, 28)))
        i = LSTM(3)(Input(shape=shape))
        j = LSTM(3)(Dense(4)(seq))
        k = LSTM(3)(layers.Conv2D(4, 3)(Input((5, 4, 850))))
    """
    assert found(source, "TFL818") == [6, 11, 13, 15, 16]


# -- TFL819 validation-split-on-ordered-data -------------------------------------------------
ORDERED = """
    import numpy as np
    import tensorflow as tf

    a = np.load("a.npy")
    b = np.load("b.npy")
    X = np.vstack((a, b))
    labels = np.hstack([np.zeros(len(a)), np.ones(len(b))]).astype("int32")
    Y = [0] * len(a) + [1] * len(b)
    features = np.concatenate([a, b], axis=1)
    model = tf.keras.models.load_model("m.keras")
    model.fit(X, labels, epochs=3, validation_split=0.1)
    model.fit(X, np.array(Y), validation_split=0.1)
    model.fit(X, Y, 32, 1, 0, None, 0.2)
    model.fit(X, features, validation_split=0.1)
    model.fit(X, labels)
"""


def test_labels_built_class_by_class() -> None:
    assert found(ORDERED, "TFL819") == [12, 13, 14]
    fractions = [d.args["fraction"] for d in analyze(ORDERED, CODES).diagnostics]
    assert fractions == ["10%", "10%", "20%"]


def test_any_shuffle_in_the_module_keeps_it_silent() -> None:
    assert not found(ORDERED + "np.random.shuffle(X)\n", "TFL819")
    shuffled = ORDERED.replace(
        "model = tf", "order = np.random.default_rng(0).permutation(len(X))\nmodel = tf"
    )
    assert not found(shuffled, "TFL819")
