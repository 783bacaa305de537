"""'accuracy' on a regression model: the loss falls to almost zero, the accuracy stays at 0."""

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)
x = np.random.default_rng(0).uniform(0, 1, size=(256, 2)).astype("float32")
y = (3 * x[:, 0] + 2 * x[:, 1] + 1).astype("float32")

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse", metrics=["accuracy"])  # [TFL807]
history = model.fit(x, y, epochs=40, verbose=0)
print("loss fell below 0.01:", history.history["loss"][-1] < 0.01)
print("accuracy stayed at 0:", max(history.history["accuracy"]) == 0.0)
