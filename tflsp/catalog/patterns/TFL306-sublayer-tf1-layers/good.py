"""A Keras Dense layer created once and stored on the model."""

import numpy as np
from tensorflow import keras


class Net(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


x = np.ones((2, 3), "float32")
model = Net()
first = model(x).numpy()
second = model(x).numpy()
print("trainable weights:", len(model.trainable_weights))
print("same output twice:", np.allclose(first, second))
