"""Register the loss so that load_model() finds it by name (or pass custom_objects)."""

import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras


@keras.utils.register_keras_serializable(package="demo")
def weighted_mse(y_true, y_pred):
    return tf.reduce_mean(2.0 * tf.square(y_true - y_pred))


x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=weighted_mse)
model.fit(x, y, epochs=1, verbose=0)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "regressor.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    print("restored model keeps training:", restored.train_on_batch(x, y) is not None)
    for_inference = keras.models.load_model(path, compile=False)
    print("inference-only load:", for_inference.predict(x, verbose=0).shape == (8, 1))
