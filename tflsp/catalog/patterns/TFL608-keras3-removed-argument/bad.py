"""Keras 2 arguments that Keras 3 rejects: ModelCheckpoint(period=), fit(workers=, nb_epoch=)."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2.0).astype("float32")

model = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(1, activation="sigmoid")]
)
model.compile(optimizer="adam", loss="binary_crossentropy")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.keras")
    checkpoint = tf.keras.callbacks.ModelCheckpoint(
        path,
        period=2,  # [TFL608]
    )
    model.fit(
        x,
        y,
        batch_size=16,
        verbose=0,
        callbacks=[checkpoint],
        nb_epoch=4,  # [TFL608]
        workers=4,  # [TFL608]
        use_multiprocessing=True,  # [TFL608]
    )
    print("checkpoint written:", os.path.exists(path))
