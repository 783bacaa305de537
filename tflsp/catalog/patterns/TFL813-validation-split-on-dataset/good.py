"""Split the arrays first and give fit() a separate validation dataset."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.random((64, 4), dtype="float32")
y = (x.sum(axis=1) > 2).astype("float32")
order = rng.permutation(len(x))
x, y = x[order], y[order]
n_val = 16
train = tf.data.Dataset.from_tensor_slices((x[n_val:], y[n_val:])).shuffle(48, seed=0).batch(16)
val = tf.data.Dataset.from_tensor_slices((x[:n_val], y[:n_val])).batch(16)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
history = model.fit(train, validation_data=val, epochs=2, verbose=0)
print("logged:", sorted(history.history))
