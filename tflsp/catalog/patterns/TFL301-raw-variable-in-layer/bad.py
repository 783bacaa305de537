"""A tf.Variable on a Keras 3 layer works in the forward pass but Keras never sees it."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = tf.Variable(tf.ones((input_shape[-1],)), name="w")  # [TFL301]

    def call(self, x):
        return x * self.w


layer = Scale()
model = keras.Sequential([keras.Input(shape=(3,)), layer])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
x = np.ones((8, 3), "float32")
before = layer.w.numpy().copy()
model.fit(x, 2 * x, batch_size=4, epochs=1, verbose=0)
print("tracked weights:", len(model.weights))
print("variable trained:", not np.allclose(before, layer.w.numpy()))
