"""fit() takes generators and datasets; the class is the argmax of predict()."""

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
model.fit(batches(), steps_per_epoch=2, epochs=1, verbose=0)
print("trained with fit")
labels = np.argmax(model.predict(x, verbose=0), axis=1)
print("predicted labels:", labels.shape)
