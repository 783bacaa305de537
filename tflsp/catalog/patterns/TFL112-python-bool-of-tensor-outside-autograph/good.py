"""Let AutoGraph convert `if`, or use tf.cond / tf.where where it does not run."""

import numpy as np
import tensorflow as tf


@tf.function
def relu_scalar(x):
    if x > 0:
        return x
    return tf.zeros_like(x)


print("relu_scalar(2.0) =", float(relu_scalar(tf.constant(2.0))))


class SkipNaN(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def train_step(self, data):
        x, y = data
        x = tf.where(tf.math.is_nan(x), tf.zeros_like(x), x)
        return super().train_step((x, y))


model = SkipNaN()
model.compile(optimizer="sgd", loss="mse")
history = model.fit(
    np.ones((8, 3), "float32"), np.ones((8, 1), "float32"), batch_size=4, verbose=0
)
print("trained epochs:", len(history.history["loss"]))
