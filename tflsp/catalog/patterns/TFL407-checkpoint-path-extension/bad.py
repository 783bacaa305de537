"""Keras 3's ModelCheckpoint checks its file name as soon as it is created."""

import os
import tempfile

import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")

with tempfile.TemporaryDirectory() as tmp:
    checkpoint = keras.callbacks.ModelCheckpoint(os.path.join(tmp, "best.hdf5"))  # [TFL407]
    model.fit(x, y, epochs=1, verbose=0, callbacks=[checkpoint])
    print("checkpoint files:", len(os.listdir(tmp)))
