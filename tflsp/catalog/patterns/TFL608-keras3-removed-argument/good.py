"""Keras 3 spellings: save_freq counts batches, epochs=, parallel loading set on the data."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2.0).astype("float32")
batch_size = 16
steps_per_epoch = len(x) // batch_size

model = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")]
)
model.compile(optimizer="adam", loss="binary_crossentropy")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.keras")
    # period=2 (epochs) becomes save_freq=2 * steps_per_epoch (batches).
    checkpoint = tf.keras.callbacks.ModelCheckpoint(path, save_freq=2 * steps_per_epoch)
    model.fit(x, y, batch_size=batch_size, verbose=0, callbacks=[checkpoint], epochs=4)
    print("checkpoint written:", os.path.exists(path))
