"""Probe targets for eager vs graph behaviour."""

import tensorflow as tf

keras = tf.keras

calls = 0


@tf.function
def prints_in_graph(x):
    print("value:", x)
    return x * 2.0


@tf.function
def tf_prints(x):
    tf.print("value:", x)
    return x * 2.0


def counts_calls(x):
    global calls
    calls += 1
    return x + 1.0


@tf.function
def numpy_in_graph(x):
    return x * x.numpy()


def pure(x):
    return tf.square(x) + 1.0


class CountingModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)
        self.steps = 0

    def call(self, x):
        self.steps += 1
        return self.dense(x)


class VariableCountingModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)
        self.steps = self.add_weight(shape=(), initializer="zeros", trainable=False, name="steps")

    def call(self, x):
        self.steps.assign_add(1.0)
        return self.dense(x)
