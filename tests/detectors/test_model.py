"""Model family (TFL801-TFL810): hard cases, aliases, unknown models and look-alikes that pass."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import analyze, analyzer, lint
from tflsp.analysis.fixes import apply_edits

MODEL = tuple(f"TFL8{n:02d}" for n in range(1, 11))


def found(source: str, target: str = "3") -> list[tuple[int, str]]:
    return lint(textwrap.dedent(source), MODEL, target)


def only(source: str, code: str, target: str = "3"):  # type: ignore[no-untyped-def]
    [diag] = [
        d for d in analyze(textwrap.dedent(source), MODEL, target).diagnostics if d.code == code
    ]
    return diag


def fixed(source: str, code: str) -> str:
    diag = only(source, code)
    assert diag.fix is not None
    return apply_edits(textwrap.dedent(source), diag.fix.edits)


# -- the model set-up: where the layers come from -------------------------------------------------
@pytest.mark.parametrize("target", ["2", "3"])
def test_aliases_resolve(target: str) -> None:
    source = """
    import tensorflow.compat.v2 as tf
    keras = tf.keras
    from keras.models import Sequential
    from keras.layers import Dense as D

    net = Sequential([D(8, activation="relu"), D(1)])
    net.compile(optimizer="adam", loss="binary_crossentropy")
    """
    assert found(source, target) == [(8, "TFL805")]


def test_adds_in_a_helper_function_and_another_block() -> None:
    source = """
    from tensorflow import keras

    def build():
        model = keras.Sequential()
        model.add(keras.layers.Dense(8, activation="relu"))
        model.add(keras.layers.Dense(1, activation="sigmoid"))
        return model

    clf = build()
    clf.add(keras.layers.Dense(3))
    clf.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    """
    # The add() in another block makes Dense(3) the output: no one-unit finding, and a raw
    # score output with a probability loss.
    assert found(source) == [(12, "TFL805")]


def test_functional_outputs_rebound_name() -> None:
    source = """
    import tensorflow as tf

    inputs = tf.keras.Input((4,))
    x = tf.keras.layers.Dense(10, activation="relu")(inputs)
    x = tf.keras.layers.Dropout(0.5)(x)
    x = tf.keras.layers.Dense(1)(x)
    model = tf.keras.Model(inputs, x)
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])
    """
    assert found(source) == [(9, "TFL808")]


def test_units_next_to_a_true_flag_are_read_right() -> None:
    # const(1) and const(True) are equal terms: the units must not be read as True.
    source = """
    from tensorflow import keras

    model = keras.Sequential([
        keras.layers.Embedding(1000, 16, mask_zero=True),
        keras.layers.GlobalAveragePooling1D(),
        keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    """
    assert found(source) == [(9, "TFL806")]
    assert only(source, "TFL806").args["layer"] == 'Dense(1, activation="sigmoid")'


UNKNOWN_MODELS = {
    "parameter": """
        def train(model):
            model.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "subclass": """
        from tensorflow import keras

        class Net(keras.Model):
            def call(self, x):
                return x

        net = Net()
        net.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "loop-built list": """
        from tensorflow import keras

        layers = [keras.layers.Dense(n) for n in (8, 1)]
        model = keras.Sequential(layers)
        model.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "either of two models": """
        from tensorflow import keras
        import sys

        if sys.argv[1:]:
            model = keras.Sequential([keras.layers.Dense(1)])
        else:
            model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "activation given by **options": """
        from tensorflow import keras

        options = load()
        model = keras.Sequential([keras.layers.Dense(1, **options)])
        model.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "multi-output model": """
        from tensorflow import keras

        inputs = keras.Input((4,))
        a = keras.layers.Dense(1)(inputs)
        b = keras.layers.Dense(3)(inputs)
        model = keras.Model(inputs, [a, b])
        model.compile(optimizer="adam", loss=["binary_crossentropy", "mse"], metrics=["accuracy"])
    """,
    "output through a raw op": """
        import tensorflow as tf

        inputs = tf.keras.Input((4,))
        model = tf.keras.Model(inputs, tf.nn.sigmoid(tf.keras.layers.Dense(1)(inputs)))
        model.compile(optimizer="adam", loss="binary_crossentropy")
    """,
    "from_logits not known": """
        from tensorflow import keras

        model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid")])
        model.compile(loss=keras.losses.BinaryCrossentropy(from_logits=FLAG))
    """,
}


@pytest.mark.parametrize("name", sorted(UNKNOWN_MODELS))
def test_silent_when_the_model_is_not_known(name: str) -> None:
    assert found(UNKNOWN_MODELS[name]) == []


# -- TFL801 ---------------------------------------------------------------------------------------
def test_labels_from_a_directory_dataset() -> None:
    source = """
    from tensorflow import keras

    train = keras.utils.image_dataset_from_directory("photos", label_mode="categorical")
    train = train.prefetch(2)
    model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(5, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train, epochs=3)
    """
    assert found(source) == [(7, "TFL801")]
    assert 'loss="categorical_crossentropy"' in fixed(source, "TFL801")


def test_default_int_labels_with_categorical_loss() -> None:
    source = """
    from tensorflow import keras

    train = keras.utils.image_dataset_from_directory("photos")
    model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(5, activation="softmax")])
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    model.fit(train, epochs=3)
    """
    assert found(source) == [(6, "TFL801")]


def test_argmax_labels_suit_the_sparse_loss() -> None:
    source = """
    import numpy as np
    from tensorflow import keras

    labels = np.argmax(keras.utils.to_categorical(np.arange(9) % 3, 3), axis=1)
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(np.zeros((9, 4)), labels)
    """
    assert found(source) == []


# -- TFL802 ---------------------------------------------------------------------------------------
def test_softmax_layer_added_after_one_unit() -> None:
    source = """
    from keras.models import Sequential
    from keras.layers import Activation, Dense

    model = Sequential()
    model.add(Dense(16, activation="relu"))
    model.add(Dense(1))
    model.add(Activation("softmax"))
    """
    assert found(source) == [(8, "TFL802")]


def test_softmax_over_several_units_is_fine() -> None:
    source = """
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(2, activation="softmax")])
    head = keras.layers.Dense(units=1, activation="sigmoid")
    """
    assert found(source) == []


def test_single_unit_softmax_fix() -> None:
    source = """
    from tensorflow import keras

    out = keras.layers.Dense(1, activation="softmax")
    """
    assert 'activation="sigmoid"' in fixed(source, "TFL802")


# -- TFL803 TFL804 TFL805 -------------------------------------------------------------------------
def test_trailing_activation_layer_counts() -> None:
    source = """
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(10), keras.layers.Activation("softmax")])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    """
    assert found(source) == [(5, "TFL804")]


def test_loss_bound_in_another_block() -> None:
    source = """
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(3, activation="softmax")])
    loss = keras.losses.CategoricalCrossentropy(from_logits=True)
    model.compile(optimizer="adam", loss=loss)
    """
    assert found(source) == [(6, "TFL803")]
    assert only(source, "TFL803").fix is None  # the loss is built elsewhere


def test_nn_loss_given_probabilities() -> None:
    source = """
    import tensorflow as tf

    def loss(labels, scores):
        probabilities = tf.nn.sigmoid(scores)
        bad = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=probabilities)
        good = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=scores)
        return bad + good
    """
    assert found(source) == [(6, "TFL803")]


def test_relu_output_and_the_from_logits_fix() -> None:
    source = """
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(4, activation="relu")])
    model.compile(optimizer="adam", loss=keras.losses.CategoricalCrossentropy())
    raw = keras.Sequential([keras.layers.Dense(4)])
    raw.compile(optimizer="adam", loss=keras.losses.CategoricalCrossentropy())
    """
    assert found(source) == [(5, "TFL805"), (7, "TFL805")]
    assert only(source.replace("relu", "sigmoid"), "TFL805").fix is not None
    assert "CategoricalCrossentropy(from_logits=True)" in fixed(
        source.replace('"relu"', '"softmax"'), "TFL805"
    )


def test_probability_outputs_are_fine() -> None:
    source = """
    from tensorflow import keras

    a = keras.Sequential([keras.layers.Dense(1, activation="sigmoid")])
    a.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    b = keras.Sequential([keras.layers.Dense(3, activation=keras.activations.softmax)])
    b.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
    c = keras.Sequential([keras.layers.Dense(3)])
    c.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    """
    assert found(source) == []


# -- TFL807 TFL808 TFL809 -------------------------------------------------------------------------
def test_accuracy_with_regression_loss_class() -> None:
    source = """
    import numpy as np
    from tensorflow import keras

    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, size=(64, 2))
    y = (2 * x[:, 0] + 1).astype("float32")
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(loss=keras.losses.MeanSquaredError(), metrics=["mae", "acc"])
    model.fit(x, y)
    """
    assert found(source) == [(9, "TFL807")]
    assert 'metrics=["mae", "mae"]' in fixed(source, "TFL807")


def test_accuracy_on_housing_targets() -> None:
    source = """
    from tensorflow import keras

    (x, y), (x_test, y_test) = keras.datasets.boston_housing.load_data()
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(loss="mse", metrics=["accuracy"])
    model.evaluate(x_test, y_test)
    """
    assert found(source) == [(6, "TFL807")]


def test_accuracy_with_mse_on_zero_one_targets_is_silent() -> None:
    # A squared error on 0/1 targets trains a classifier (the TF guide on canned estimators does
    # it on the Titanic data): its accuracy means something.  So do labels the code hides.
    source = """
    import numpy as np
    import pandas as pd
    from tensorflow import keras

    x = np.random.rand(64, 2)
    frame = pd.read_csv("titanic.csv")
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(loss="mse", metrics=["accuracy"])
    model.fit(x, (x[:, 0] > 0.5).astype("float32"))
    model.fit(x, frame.pop("survived"))
    model.fit(x, np.round(np.random.rand(64)))
    """
    assert found(source) == []


def test_threshold_metric_fixes() -> None:
    source = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[tf.keras.metrics.Precision(), tf.keras.metrics.BinaryAccuracy(threshold=0.0)],
    )
    """
    assert found(source) == [(7, "TFL808")]
    assert "Precision(thresholds=0.0)" in fixed(source, "TFL808")


def test_accuracy_on_logit_string_fix_uses_the_module_alias() -> None:
    source = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])
    """
    assert 'tf.keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0)' in fixed(
        source, "TFL808"
    )


def test_accuracy_on_multi_label_sigmoid() -> None:
    source = """
    from tensorflow import keras

    tagger = keras.Sequential([keras.layers.Dense(5, activation="sigmoid")])
    tagger.compile(loss="binary_crossentropy", metrics=["accuracy", keras.metrics.BinaryAccuracy()])
    single = keras.Sequential([keras.layers.Dense(1, activation="sigmoid")])
    single.compile(loss="binary_crossentropy", metrics=["accuracy"])
    """
    assert found(source) == [(5, "TFL809")]


# -- TFL810 ---------------------------------------------------------------------------------------
def test_swapped_parameters_only_when_keras_calls_the_function() -> None:
    source = """
    import tensorflow as tf

    def used(y_pred, y_true):
        return tf.reduce_mean(y_true * tf.math.log(y_pred))

    def by_hand(y_pred, y_true):
        return tf.reduce_mean(y_true * tf.math.log(y_pred))

    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(loss=used)
    print(by_hand(model(x), y))
    """
    assert found(source) == [(4, "TFL810")]
    assert "def used(y_true, y_pred):" in fixed(source, "TFL810")


def test_metric_subclass_update_state() -> None:
    source = """
    from tensorflow import keras

    class Hits(keras.metrics.Metric):
        def update_state(self, y_pred, y_true, sample_weight=None):
            pass
    """
    assert found(source) == [(5, "TFL810")]


def test_swapped_library_call_symmetric_ones_pass() -> None:
    source = """
    from tensorflow import keras

    def loss(y_true, y_pred):
        a = keras.losses.mean_squared_error(y_pred, y_true)
        b = keras.losses.categorical_crossentropy(y_pred, y_true)
        return a + b
    """
    assert found(source) == [(6, "TFL810")]
    assert "categorical_crossentropy(y_true, y_pred)" in fixed(source, "TFL810")


def test_nn_loss_given_a_layer_output_with_its_activation() -> None:
    source = """
    import tensorflow as tf

    features = tf.compat.v1.placeholder(tf.float32, [None, 8])
    labels = tf.compat.v1.placeholder(tf.float32, [None, 3])
    scores = tf.compat.v1.layers.dense(features, 3, activation=tf.nn.softmax)
    a = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=scores)
    probabilities = tf.keras.layers.Dense(3, activation="softmax")(features)
    b = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=probabilities)
    raw = tf.keras.layers.Dense(3)(features)
    c = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=raw)
    sigmoid = tf.nn.sigmoid(raw)
    d = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=sigmoid)
    """
    # d: a sigmoid before a softmax loss is wrong too, but not the double softmax the message
    # describes: not reported.
    assert found(source) == [(7, "TFL803"), (9, "TFL803")]


def test_auc_and_counts_on_logits() -> None:
    source = """
    from tensorflow import keras

    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.AUC(from_logits=False), keras.metrics.TruePositives(), keras.metrics.AUC(from_logits=True)],
    )
    """
    assert found(source) == [(7, "TFL808"), (7, "TFL808")]
    auc = source.replace(", keras.metrics.TruePositives()", "")
    assert only(auc, "TFL808").message_id == "auc"
    assert "metrics=[keras.metrics.AUC(from_logits=True), keras" in fixed(auc, "TFL808")
    counts = source.replace("keras.metrics.AUC(from_logits=False), ", "")
    assert "TruePositives(thresholds=0.0)" in fixed(counts, "TFL808")


def test_accuracy_on_multi_label_logits() -> None:
    source = """
    from tensorflow import keras

    tagger = keras.Sequential([keras.layers.Dense(5)])
    tagger.compile(
        loss=keras.losses.BinaryCrossentropy(from_logits=True), metrics=["acc", "binary_accuracy"]
    )
    """
    # "acc" on five logit units: categorical accuracy (TFL809); "binary_accuracy" cuts at 0.5.
    assert found(source) == [(6, "TFL809"), (6, "TFL808")]


LABEL_ORIGINS = {
    "mnist ids, categorical loss": (
        """
        from tensorflow import keras

        (x, y), (x_test, y_test) = keras.datasets.mnist.load_data()
        model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(10, activation="softmax")])
        model.compile(optimizer="adam", loss="categorical_crossentropy")
        model.fit(x, y.astype("int32"))
        """,
        [(6, "TFL801")],
    ),
    "mnist one-hot after to_categorical": (
        """
        from tensorflow import keras

        (x, y), _ = keras.datasets.mnist.load_data()
        y = keras.utils.to_categorical(y, 10)
        model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(10, activation="softmax")])
        model.compile(optimizer="adam", loss="categorical_crossentropy")
        model.fit(x, y)
        """,
        [],
    ),
    "np.eye rows, sparse loss": (
        """
        import numpy as np
        from tensorflow import keras

        ids = np.random.randint(0, 4, size=(32,))
        model = keras.Sequential([keras.layers.Dense(4, activation="softmax")])
        model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy())
        model.evaluate(np.zeros((32, 3)), np.eye(4)[ids])
        """,
        [(7, "TFL801")],
    ),
    "flow_from_directory default, sparse loss": (
        """
        from tensorflow import keras

        images = keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255)
        train = images.flow_from_directory("photos", target_size=(64, 64))
        model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
        model.fit(train)
        """,
        [(7, "TFL801")],
    ),
    "flow_from_directory sparse, sparse loss": (
        """
        from tensorflow import keras

        images = keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255)
        train = images.flow_from_directory("photos", class_mode="sparse")
        model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
        model.fit(train)
        """,
        [],
    ),
}


@pytest.mark.parametrize("name", sorted(LABEL_ORIGINS))
def test_label_origins(name: str) -> None:
    source, expected = LABEL_ORIGINS[name]
    assert found(source, "2") == expected


def test_probabilities_given_to_a_logits_loss_in_a_training_loop() -> None:
    source = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax")])
    raw = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
            fine = loss_fn(y, raw(x))
        return tape.gradient(loss + fine, model.trainable_variables)
    """
    assert found(source) == [(10, "TFL803")]


def test_edits_in_other_blocks_update_the_finding() -> None:
    # One analyzer, as the server keeps per document: the compile() block's findings must follow
    # edits to the blocks that define its layers and its labels.
    tool = analyzer(MODEL, "3")
    base = textwrap.dedent(
        """
        import numpy as np
        from tensorflow import keras

        ids = np.random.randint(0, 3, size=(8,))
        labels = keras.utils.to_categorical(ids, 3)
        model = keras.Sequential([keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
        model.fit(np.zeros((8, 4)), labels)
        """
    )

    def codes(text: str) -> list[tuple[int, str]]:
        return [(d.line, d.code) for d in tool.analyze(text).diagnostics]

    assert codes(base) == [(8, "TFL801")]
    assert codes(base.replace("fit(np.zeros((8, 4)), labels)", "fit(np.zeros((8, 4)), ids)")) == []
    assert codes(base) == [(8, "TFL801")]
    raw = base.replace('Dense(3, activation="softmax")', "Dense(3)")
    assert sorted(codes(raw)) == [(8, "TFL801"), (8, "TFL805")]
    assert codes(base) == [(8, "TFL801")]


def test_output_added_under_a_condition_is_not_known() -> None:
    source = """
    from tensorflow import keras

    def build(classes):
        model = keras.Sequential()
        model.add(keras.layers.Dense(16, activation="relu"))
        if classes == 2:
            model.add(keras.layers.Dense(1, activation="sigmoid"))
        else:
            model.add(keras.layers.Dense(classes, activation="softmax"))
        model.compile(optimizer="adam", loss="binary_crossentropy")
        for units in (8, 4):
            model.add(keras.layers.Dense(units))
        return model
    """
    assert found(source) == []


def test_backend_loss_swapped_and_softmax_function_activation() -> None:
    source = """
    import tensorflow as tf
    from keras import backend as K
    from keras.layers import Dense

    def loss(target, output):
        return K.categorical_crossentropy(output, target)

    head = Dense(1, activation=tf.nn.softmax)
    """
    assert found(source, "2") == [(7, "TFL810"), (9, "TFL802")]
    # Not a string: the activation is left for the user to change.
    assert only(source, "TFL802", "2").fix is None
