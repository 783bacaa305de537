"""add_weight creates a variable that Keras tracks, trains and saves."""

import numpy as np
from tensorflow import keras


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

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
