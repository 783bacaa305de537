"""validation_split cannot slice a tf.data.Dataset: fit() raises before training starts."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2).astype("float32")
train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=0).batch(16)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
history = model.fit(train, validation_split=0.25, epochs=2, verbose=0)  # [TFL813]
print("logged:", sorted(history.history))
