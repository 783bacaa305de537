"""Python `if` on a tensor needs AutoGraph; where it is off, tracing fails."""

import numpy as np
import tensorflow as tf


@tf.function(autograph=False)
def relu_scalar(x):
    if x > 0:  # [TFL112]
        return x
    return tf.zeros_like(x)


try:
    relu_scalar(tf.constant(2.0))
except TypeError as error:
    print("tf.function(autograph=False) failed:", type(error).__name__)


class SkipNaN(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def train_step(self, data):
        x, y = data
        if tf.reduce_any(tf.math.is_nan(x)):  # [TFL112]
            x = tf.zeros_like(x)
        return super().train_step((x, y))


model = SkipNaN()
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((8, 3), "float32"), np.ones((8, 1), "float32"), batch_size=4, verbose=0)
