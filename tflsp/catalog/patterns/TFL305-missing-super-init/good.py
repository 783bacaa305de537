"""super().__init__(**kwargs) comes first, so Keras can set the layer up."""

import tensorflow as tf
from tensorflow import keras


class Scale(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.factor = 2.0

    def call(self, x):
        return x * self.factor


layer = Scale()
print("constructed:", type(layer).__name__)
print("output:", layer(tf.ones((1, 3))).numpy())
