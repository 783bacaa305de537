"""Two classes: one sigmoid unit with binary_crossentropy, or two units with the sparse loss."""

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
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.fit(x, y, epochs=1, verbose=0)
print("trained")

two_units = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(2, activation="softmax"),
    ]
)
two_units.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
two_units.fit(x, y, epochs=1, verbose=0)
print("trained")
