"""A model compiled with a custom loss function saves fine; load_model() cannot find the loss."""

import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras


def weighted_mse(y_true, y_pred):
    return tf.reduce_mean(2.0 * tf.square(y_true - y_pred))


model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=weighted_mse)
model.fit(np.ones((8, 3), "float32"), np.ones((8, 1), "float32"), epochs=1, verbose=0)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "regressor.keras")
    model.save(path)
    print("saved:", os.path.exists(path))
    restored = keras.models.load_model(path)  # [TFL409]
    print("restored layers:", len(restored.layers))
