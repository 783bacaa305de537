"""Shuffle samples and labels together before validation_split takes the last 20%."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(0)
cats = rng.random((50, 4), dtype="float32")
dogs = rng.random((50, 4), dtype="float32") + 1.0
x = np.concatenate([cats, dogs])
y = np.concatenate([np.zeros(50, "float32"), np.ones(50, "float32")])
order = rng.permutation(len(x))
x, y = x[order], y[order]


def positive_share(y_true, y_pred):
    return tf.reduce_mean(y_true)


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=[positive_share])
history = model.fit(x, y, validation_split=0.2, shuffle=True, epochs=1, verbose=0)
print("validation holds one class only:", history.history["val_positive_share"][0] in (0.0, 1.0))
