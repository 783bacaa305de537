"""Let a subclassed model build itself from the first batch it sees."""

import tensorflow as tf
from tensorflow import keras


class Regressor(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.head = keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.hidden(x))


model = Regressor()
print("output for 3 features:", tuple(model(tf.ones((2, 3))).shape))
print("built after the first call:", model.built)
print("weights after the first call:", len(model.weights))
