"""Layers kept on a plain Python object or in a module global are invisible to the model."""

import numpy as np
from tensorflow import keras


class Parts:
    def __init__(self):
        self.hidden = keras.layers.Dense(4, activation="tanh")


output_layer = keras.layers.Dense(1)


class Net(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.parts = Parts()  # [TFL304]

    def call(self, x):
        return output_layer(self.parts.hidden(x))  # [TFL304]


x = np.ones((8, 3), "float32")
y = np.zeros((8, 1), "float32")
model = Net()
model(x)
before = output_layer.kernel.numpy().copy()
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("tracked weights:", len(model.weights))
print("output layer trained:", not np.allclose(before, output_layer.kernel.numpy()))
