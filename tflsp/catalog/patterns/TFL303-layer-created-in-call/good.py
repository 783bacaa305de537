"""The layer is created once in __init__ and only called in call()."""

import numpy as np
from tensorflow import keras


class Head(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


x = np.ones((8, 3), "float32")
y = np.zeros((8, 1), "float32")
model = Head()
model(x)
print("weights after an eager call:", len(model.weights))
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("fit finished")
