"""A small registered Layer subclass saves and loads on Keras 3 and Keras 2 alike."""

import os
import tempfile

import numpy as np
from tensorflow import keras

@keras.utils.register_keras_serializable(package="demo")
class Double(keras.layers.Layer):
    def call(self, inputs):
        return inputs * 2.0


model = keras.Sequential([keras.Input((3,)), Double(), keras.layers.Dense(1)])
x = np.ones((2, 3), "float32")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "scaled.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored output matches:", bool(np.allclose(restored(x), model(x))))
