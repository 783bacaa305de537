"""A Keras layer whose __init__ skips super().__init__() is half-built."""

import tensorflow as tf
from tensorflow import keras


class Scale(keras.layers.Layer):
    def __init__(self, **kwargs):  # [TFL305]
        self.factor = 2.0

    def call(self, x):
        return x * self.factor


layer = Scale()
print("constructed:", type(layer).__name__)
try:
    print("repr:", repr(layer))
except AttributeError as error:
    print("repr failed:", error)
print("output:", layer(tf.ones((1, 3))).numpy())
