"""input_shape= given to subclassed models: Keras 3 ignores it, Keras 2 rejects it."""

import tensorflow as tf
from tensorflow import keras


class Regressor(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.head = keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.hidden(x))


class Classifier(keras.Model):
    def __init__(self):
        super().__init__(input_shape=(4,))  # [TFL307]
        self.head = keras.layers.Dense(2, activation="softmax")

    def call(self, x):
        return self.head(x)


model = Regressor(input_shape=(3,))  # [TFL307]
print("built after construction:", model.built)
print("output for 5 features:", tuple(model(tf.ones((2, 5))).shape))
print("classifier built after construction:", Classifier().built)
