"""The native .keras format saves subclassed models on Keras 3 and Keras 2."""

import os
import tempfile

import numpy as np
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
class TinyNet(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(2)

    def call(self, inputs):
        return self.dense(inputs)


model = TinyNet()
x = np.ones((1, 3), "float32")
model(x)

with tempfile.TemporaryDirectory() as tmp:
    model.save(os.path.join(tmp, "tiny.keras"))
    print("saved files:", sorted(os.listdir(tmp)))
    restored = keras.models.load_model(os.path.join(tmp, "tiny.keras"))
    print("restored output matches:", np.allclose(restored(x), model(x)))
