"""Put the targets into the dataset: each element is a (features, targets) pair."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2).astype("float32")
train = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
history = model.fit(train, epochs=2, verbose=0)
print("epochs run:", len(history.history["loss"]))
