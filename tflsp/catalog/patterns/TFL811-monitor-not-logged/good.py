"""Monitor a name the training really logs: metrics=["accuracy"] logs "val_accuracy"."""

import os
import tempfile

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2).astype("float32")

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "best.weights.h5")
    best = keras.callbacks.ModelCheckpoint(
        path, monitor="val_accuracy", save_best_only=True, save_weights_only=True
    )
    history = model.fit(x, y, validation_split=0.25, epochs=2, callbacks=[best], verbose=0)
    print("logged:", sorted(history.history))
    print("best checkpoint written:", os.path.exists(path))
