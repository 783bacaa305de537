"""The model set-up view (tflsp.analysis.model_setup): layers, output, loss and metrics."""

from __future__ import annotations

import ast
from typing import Any

from tests.analysis.helpers import contexts
from tflsp.analysis import model_setup as ms


def outputs(source: str) -> list[tuple[str, int | None, str | None] | None]:
    """(last Dense class, its units, what the model ends in) for every ``reveal(model)``."""
    found: list[tuple[str, int | None, str | None] | None] = []
    for ctx in contexts(source):
        memo: dict[Any, Any] = {}
        for call in ctx.index.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == "reveal"):
                continue
            got = ms.model_output(
                ctx.model,
                ctx.semantics.terms.expr(call.args[0]),
                ctx.ordinal,
                ctx.semantics.scope_id_of(call),
                ctx.summary,
                memo,
            )
            if got is None:
                found.append(None)
            else:
                out = got[1]
                found.append((out.dense.kind, out.dense.units, out.activation))
    return found


def test_sequential_list_adds_and_trailing_layers() -> None:
    source = """
    from tensorflow import keras

    a = keras.Sequential([keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    reveal(a)
    b = keras.Sequential()
    b.add(keras.layers.Dense(3))
    b.add(keras.layers.Dropout(0.2))
    b.add(keras.layers.Softmax())
    reveal(b)
    inputs = keras.Input((4,))
    x = keras.layers.Dense(10)(inputs)
    x = keras.layers.Activation("softmax")(x)
    x = keras.layers.Activation("linear", dtype="float32")(x)
    reveal(keras.Model(inputs, x))
    """
    assert outputs(source) == [
        ("keras.layers.Dense", 2, "linear"),
        ("keras.layers.Dense", 3, "softmax"),
        ("keras.layers.Dense", 10, "softmax"),
    ]


def test_functional_and_helper_built_models() -> None:
    source = """
    import tensorflow as tf

    def build(units):
        inputs = tf.keras.Input((4,))
        hidden = tf.keras.layers.Dense(8, activation=tf.nn.relu)(inputs)
        return tf.keras.Model(inputs, tf.keras.layers.Dense(units, activation="sigmoid")(hidden))

    model = build(5)
    reveal(model)
    """
    # The units are the helper's parameter: unknown, the activation is known.
    assert outputs(source) == [("keras.layers.Dense", None, "sigmoid")]


def test_unknown_models() -> None:
    source = """
    from tensorflow import keras

    def train(model):
        reveal(model)

    c = keras.Sequential([keras.layers.Dense(2), keras.layers.BatchNormalization()])
    reveal(c)
    d = keras.applications.MobileNetV2()
    reveal(d)
    """
    assert outputs(source) == [None, None, None]


def test_loss_and_metric_descriptions() -> None:
    source = """
    import tensorflow as tf
    from tensorflow import keras

    reveal_loss("mse")
    reveal_loss(keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    reveal_loss(tf.keras.losses.binary_crossentropy)
    reveal_loss(keras.losses.CategoricalCrossentropy(**options))
    reveal_metric("acc")
    reveal_metric(keras.metrics.BinaryAccuracy(threshold=0.0))
    reveal_metric(keras.metrics.AUC())
    """
    losses, metrics = [], []
    for ctx in contexts(source):
        for call in ctx.index.nodes(ast.Call):
            if not isinstance(call.func, ast.Name):
                continue
            term = ctx.semantics.terms.expr(call.args[0])
            if call.func.id == "reveal_loss":
                loss = ms.loss_of(ctx.model, term, ctx.ordinal)
                losses.append(None if loss is None else (loss.name, loss.from_logits, loss.string))
            elif call.func.id == "reveal_metric":
                metric = ms.metric_of(ctx.model, term, ctx.ordinal)
                metrics.append(None if metric is None else (metric.name, metric.setting))
    assert losses == [
        ("mean_squared_error", False, True),
        ("sparse_categorical_crossentropy", True, False),
        ("binary_crossentropy", False, False),
        ("categorical_crossentropy", None, False),
    ]
    assert metrics == [("accuracy", None), ("BinaryAccuracy", 0.0), ("AUC", None)]
