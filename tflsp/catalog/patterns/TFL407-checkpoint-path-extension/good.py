"""Whole models go to '.keras' files, weights to '.weights.h5' files."""

import os
import tempfile

import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")

with tempfile.TemporaryDirectory() as tmp:
    callbacks = [
        keras.callbacks.ModelCheckpoint(os.path.join(tmp, "best.keras")),
        keras.callbacks.ModelCheckpoint(
            os.path.join(tmp, "epoch{epoch:02d}.weights.h5"), save_weights_only=True
        ),
    ]
    model.fit(x, y, epochs=1, verbose=0, callbacks=callbacks)
    print("checkpoint files:", len(os.listdir(tmp)))
