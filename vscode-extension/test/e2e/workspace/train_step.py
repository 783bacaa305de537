"""A training step with a debugging print() left in it, and a small Keras layer."""

import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.factor = self.add_weight(shape=(1,), initializer="ones")

    def call(self, x):
        return x * self.factor


@tf.function
def train_step(x):
    print("x =", x)
    return Scale()(x)


for value in [1.0, 2.0, 3.0]:
    train_step(tf.constant([value]))
