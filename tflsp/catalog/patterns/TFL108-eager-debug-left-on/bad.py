"""Eager execution switched on for good: every step runs as slow Python."""

import numpy as np
import tensorflow as tf


class Probe(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)
        self.ran_eagerly = None

    def call(self, inputs):
        self.ran_eagerly = tf.executing_eagerly()
        return self.dense(inputs)


x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")
model = Probe()
model.compile(optimizer="sgd", loss="mse", run_eagerly=True)  # [TFL108]
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("call() ran eagerly during fit:", model.ran_eagerly)

tf.config.run_functions_eagerly(True)  # [TFL108]


@tf.function
def double(v):
    return v * 2, tf.executing_eagerly()


_, eager = double(tf.constant(1.0))
print("tf.function ran eagerly:", bool(eager))
