"""One unit with a sigmoid gives a probability per sample (or two units with a softmax)."""

import numpy as np
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x[:, 0] > 0).astype("float32")

model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.fit(x, y, epochs=3, verbose=0)
print("every prediction is 1.0:", bool(np.all(model.predict(x, verbose=0) == 1.0)))

inputs = keras.Input((4,))
scores = keras.layers.Dense(2)(inputs)
probability = keras.layers.Activation("softmax")(scores)
functional = keras.Model(inputs, probability)
print("softmax layer after two units gives 1.0:", bool(np.all(functional(x) == 1.0)))
