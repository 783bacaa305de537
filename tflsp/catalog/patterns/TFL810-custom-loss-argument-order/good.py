"""A loss takes (y_true, y_pred), and passes them on in that order."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.array([[-2.0], [-0.3], [0.2], [0.4], [1.5], [3.0]], "float32")
y = np.array([[0], [0], [1], [1], [1], [1]], "float32")


def weighted_crossentropy(y_true, y_pred):
    y_pred = tf.clip_by_value(y_pred, 1e-7, 1 - 1e-7)
    positive = 3.0 * y_true * tf.math.log(y_pred)
    negative = (1.0 - y_true) * tf.math.log(1.0 - y_pred)
    return -tf.reduce_mean(positive + negative, axis=-1)


def plain_crossentropy(y_true, y_pred):
    return keras.losses.binary_crossentropy(y_true, y_pred)


model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, activation="sigmoid")])
model.layers[-1].set_weights([np.ones((1, 1), "float32"), np.zeros((1,), "float32")])
p = np.clip(model.predict(x, verbose=0), 1e-7, 1 - 1e-7)
intended_weighted = float(np.mean(-(3.0 * y * np.log(p) + (1 - y) * np.log(1 - p))))
intended_plain = float(np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))))

model.compile(optimizer="adam", loss=weighted_crossentropy)
weighted = model.evaluate(x, y, verbose=0)
print("weighted loss is the intended one:", abs(weighted - intended_weighted) < 1e-3)
model.compile(optimizer="adam", loss=plain_crossentropy)
plain = model.evaluate(x, y, verbose=0)
print("plain loss is the intended one:", abs(plain - intended_plain) < 1e-3)
