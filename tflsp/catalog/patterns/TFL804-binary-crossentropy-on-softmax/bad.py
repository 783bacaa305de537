"""binary_crossentropy scores each unit on its own; a softmax makes the units compete."""

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(512, 6)).astype("float32")
tags = np.stack([x[:, 0] > 0, x[:, 1] > 0, x[:, 2] > 0], axis=1).astype("float32")

model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(3, activation="softmax")])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy")  # [TFL804]
model.fit(x, tags, epochs=20, verbose=0)

predicted = model.predict(x, verbose=0) > 0.5
several = tags.sum(axis=1) >= 2
print("samples with two or more tags:", int(several.sum()))
print("some of them predicted with two or more tags:", bool((predicted[several].sum(axis=1) >= 2).any()))
