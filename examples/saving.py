"""A subclassed model that cannot make the round trip through model.save()."""

import tempfile

import keras
import numpy as np


class Residual(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)

    def call(self, inputs):
        return inputs + self.dense(inputs)


class Classifier(keras.Model):
    def __init__(self, hidden=32, classes=3, **kwargs):
        super().__init__(**kwargs)
        self.block = Residual(hidden)
        self.head = keras.layers.Dense(classes)

    def call(self, inputs):
        return self.head(self.block(inputs))


model = Classifier(hidden=16)
model(np.zeros((2, 16), "float32"))
with tempfile.TemporaryDirectory() as tmp:
    model.save(f"{tmp}/classifier")
    model.save_weights(f"{tmp}/classifier.h5")
    restored = keras.models.load_model(f"{tmp}/classifier.keras")
