"""Positional arguments that Keras 3 binds to a different parameter."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.random((32, 4), dtype="float32")
y = (x.sum(axis=1) > 2.0).astype("float32")


class Projection(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", (input_shape[-1], 2))  # [TFL611]

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


def project():
    return Projection()(x)


def train():
    model = tf.keras.Sequential(
        [tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")]
    )
    model.compile("adam", "binary_crossentropy", ["accuracy"])  # [TFL611]
    model.fit(x, y, epochs=1, verbose=0)


for step in (project, train):
    try:
        step()
        print(step.__name__, "works")
    except (TypeError, ValueError) as error:
        print(step.__name__, "fails:", type(error).__name__)
