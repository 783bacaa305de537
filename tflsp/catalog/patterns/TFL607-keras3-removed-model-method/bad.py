"""Keras 2 model methods that are gone: fit_generator (Keras 3) and predict_classes (TF 2.6)."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.random((32, 4), dtype="float32")
y = (x.sum(axis=1) > 2.0).astype("int64")


def batches():
    while True:
        yield x, y


model = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(2, activation="softmax")]
)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit_generator(batches(), steps_per_epoch=2, epochs=1, verbose=0)  # [TFL607]
print("trained with fit_generator")
labels = model.predict_classes(x, verbose=0)  # [TFL607]
print("predicted labels:", labels.shape)
