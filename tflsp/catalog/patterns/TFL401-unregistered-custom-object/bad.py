"""load_model() cannot rebuild a custom layer class that was never registered."""

import os
import tempfile

import numpy as np
from tensorflow import keras


class Doubler(keras.layers.Layer):  # [TFL401]
    def call(self, inputs):
        return inputs * 2.0


inputs = keras.Input((3,))
model = keras.Model(inputs, Doubler()(keras.layers.Dense(2)(inputs)))
x = np.ones((1, 3), "float32")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored output matches:", np.allclose(restored(x), model(x)))
