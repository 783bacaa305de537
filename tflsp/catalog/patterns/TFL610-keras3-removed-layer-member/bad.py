"""Layer and metric members of Keras 2 that Keras 3 removed."""

import numpy as np
import tensorflow as tf


class CallCounter(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.calls = self.add_weight(name="calls", shape=(), initializer="zeros", trainable=False)

    def call(self, x):
        self.add_update(self.calls.assign_add(1.0))  # [TFL610]
        return x


dense = tf.keras.layers.Dense(2)
model = tf.keras.Sequential([tf.keras.Input((3,)), dense])
mean_loss = tf.keras.metrics.Mean()


def count_calls():
    return CallCounter()(np.ones((1, 3), "float32"))


def output_shape():
    return dense.output_shape  # [TFL610]


def reset_metric():
    mean_loss.update_state(2.0)
    mean_loss.reset_states()  # [TFL610]


for probe in (count_calls, output_shape, reset_metric):
    try:
        probe()
        print(probe.__name__, "works")
    except AttributeError:
        print(probe.__name__, "fails: AttributeError")
