"""Keras 3: assign state directly, read shapes from the output tensor, reset_state()."""

import numpy as np
import tensorflow as tf


class CallCounter(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.calls = self.add_weight(name="calls", shape=(), initializer="zeros", trainable=False)

    def call(self, x):
        self.calls.assign_add(1.0)
        return x


dense = tf.keras.layers.Dense(2)
model = tf.keras.Sequential([tf.keras.Input((3,)), dense])
mean_loss = tf.keras.metrics.Mean()


def count_calls():
    return CallCounter()(np.ones((1, 3), "float32"))


def output_shape():
    return tuple(dense.output.shape)


def reset_metric():
    mean_loss.update_state(2.0)
    mean_loss.reset_state()


for probe in (count_calls, output_shape, reset_metric):
    try:
        probe()
        print(probe.__name__, "works")
    except AttributeError:
        print(probe.__name__, "fails: AttributeError")
print("output shape:", output_shape())
print("metric reset:", float(mean_loss.result()) == 0.0)
