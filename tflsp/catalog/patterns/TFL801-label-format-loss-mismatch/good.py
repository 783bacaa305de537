"""Class ids go with the sparse loss; one-hot rows go with the categorical loss."""

import numpy as np
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
class_ids = np.random.randint(0, 3, size=(32,))
one_hot = keras.utils.to_categorical(class_ids, 3)


def build():
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])


sparse_model = build()
sparse_model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
try:
    sparse_model.fit(x, class_ids, epochs=1, verbose=0)
    print("class ids, sparse loss: trained")
except ValueError:
    print("class ids, sparse loss: ValueError")

categorical_model = build()
categorical_model.compile(optimizer="adam", loss=keras.losses.CategoricalCrossentropy())
try:
    categorical_model.fit(x, one_hot, epochs=1, verbose=0)
    print("one-hot labels, categorical loss: trained")
except ValueError:
    print("one-hot labels, categorical loss: ValueError")
