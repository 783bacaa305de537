"""A softmax over one unit always returns 1.0, whatever the input."""

import numpy as np
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x[:, 0] > 0).astype("float32")

model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(1, activation="softmax"),  # [TFL802]
    ]
)
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(x, y, epochs=3, verbose=0)
print("every prediction is 1.0:", bool(np.all(model.predict(x, verbose=0) == 1.0)))
print("accuracy is the share of positives:", abs(history.history["accuracy"][-1] - y.mean()) < 1e-6)

inputs = keras.Input((4,))
scores = keras.layers.Dense(1)(inputs)
probability = keras.layers.Activation("softmax")(scores)  # [TFL802]
functional = keras.Model(inputs, probability)
print("softmax layer after one unit gives 1.0:", bool(np.all(functional(x) == 1.0)))
