"""get_config() forgets `factor`: the reloaded layer silently uses the default value."""

import os
import tempfile

import numpy as np
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
class Scale(keras.layers.Layer):
    def __init__(self, units, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.factor = factor
        self.dense = keras.layers.Dense(units)

    def call(self, inputs):
        return self.dense(inputs) * self.factor

    def get_config(self):  # [TFL403]
        config = super().get_config()
        config.update({"units": self.units})
        return config


inputs = keras.Input((3,))
model = keras.Model(inputs, Scale(4, factor=10.0)(inputs))
x = np.ones((2, 3), "float32")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "scale.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored factor:", restored.layers[-1].factor)
    print("outputs match after reload:", np.allclose(restored(x), model(x)))
