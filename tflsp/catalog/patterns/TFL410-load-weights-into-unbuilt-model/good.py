"""Build the subclassed model (call it once, or build()) before loading its weights."""

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
    restored(x)  # creates the variables
    print("variables before loading:", len(restored.weights))
    restored.load_weights(path)
    print("weights restored:", bool(np.allclose(restored(x), trained(x))))
