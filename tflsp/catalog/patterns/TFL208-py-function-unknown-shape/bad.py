"""tf.py_function() results have no static shape; Keras cannot build a model from them."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


def load_image(index):
    return np.full((8, 8, 1), float(index.numpy()) / 10.0, "float32")


def to_example(index):
    image = tf.py_function(load_image, [index], tf.float32)  # [TFL208]
    return image, tf.cast(index % 2, tf.float32)


ds = tf.data.Dataset.range(16).map(to_example).batch(4)
print("image shape known:", ds.element_spec[0].shape.rank is not None)

model = keras.Sequential([keras.layers.Conv2D(2, 3), keras.layers.Flatten(), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(ds, epochs=1, verbose=0)
print("trained")
