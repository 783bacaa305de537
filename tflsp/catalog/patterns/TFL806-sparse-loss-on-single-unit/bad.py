"""A sparse categorical loss needs one output unit per class; this model has one unit."""

import numpy as np
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x[:, 0] > 0).astype("int32")

model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])  # [TFL806]
model.fit(x, y, epochs=1, verbose=0)
print("trained")
