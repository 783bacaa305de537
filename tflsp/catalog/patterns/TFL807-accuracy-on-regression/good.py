"""A regression model is judged by an error metric such as the mean absolute error."""

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)
x = np.random.default_rng(0).uniform(0, 1, size=(256, 2)).astype("float32")
y = (3 * x[:, 0] + 2 * x[:, 1] + 1).astype("float32")

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse", metrics=["mae"])
history = model.fit(x, y, epochs=40, verbose=0)
print("loss fell below 0.01:", history.history["loss"][-1] < 0.01)
print("mean absolute error below 0.1:", history.history["mae"][-1] < 0.1)
