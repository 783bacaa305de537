"""batch() returns a new dataset: called on its own, it leaves `train` unbatched for fit()."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.zeros((64, 4), "float32")
y = np.zeros((64, 1), "float32")
train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=0)
train.batch(16)  # [TFL820]
print("element shape:", train.element_spec[0].shape)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
history = model.fit(train, epochs=1, verbose=0)  # [TFL820]
print("epochs run:", len(history.history["loss"]))
