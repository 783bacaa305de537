"""batch(8, drop_remainder=True) on 5 samples drops the only, partial batch: nothing is left."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

features = np.random.rand(5, 3).astype("float32")
labels = np.random.rand(5, 1).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((features, labels))
ds = ds.batch(8, drop_remainder=True)  # [TFL205]
print("batches per epoch:", int(ds.cardinality()))

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
history = model.fit(ds, epochs=2, verbose=0)
print("history:", history.history)
