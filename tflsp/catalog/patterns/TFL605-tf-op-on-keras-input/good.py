"""Use keras.ops on symbolic inputs, or wrap the TensorFlow op in a layer."""

import keras
import tensorflow as tf

inputs = keras.Input(shape=(3,))
total = keras.ops.sum(inputs, axis=-1, keepdims=True)
model = keras.Model(inputs, total)
print("output:", model(tf.ones((1, 3))).numpy())


class ReduceSum(keras.layers.Layer):
    def call(self, x):
        return tf.reduce_sum(x, axis=-1, keepdims=True)


wrapped = keras.Model(inputs, ReduceSum()(inputs))
print("wrapped output:", wrapped(tf.ones((1, 3))).numpy())
