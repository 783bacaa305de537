"""A subclassed model has no variables until it is called, so load_weights() has nowhere to go."""

import os
import tempfile

import numpy as np
from tensorflow import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(4, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


x = np.ones((2, 3), "float32")
trained = Regressor()
trained(x)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "regressor.weights.h5")
    trained.save_weights(path)
    restored = Regressor()
    print("variables before loading:", len(restored.weights))
    restored.load_weights(path)  # [TFL410]
    print("weights restored:", bool(np.allclose(restored(x), trained(x))))
