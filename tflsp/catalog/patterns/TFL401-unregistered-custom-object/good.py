"""Register the custom class so that load_model() can find it by name."""

import os
import tempfile

import numpy as np
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
class Doubler(keras.layers.Layer):
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
