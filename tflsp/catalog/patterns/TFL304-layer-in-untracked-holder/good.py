"""Sub-layers live on Keras objects (a Layer subclass, attributes of the model)."""

import numpy as np
from tensorflow import keras


class Parts(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(4, activation="tanh")

    def call(self, x):
        return self.hidden(x)


class Net(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.parts = Parts()
        self.output_layer = keras.layers.Dense(1)

    def call(self, x):
        return self.output_layer(self.parts(x))


x = np.ones((8, 3), "float32")
y = np.zeros((8, 1), "float32")
model = Net()
model(x)
before = model.output_layer.kernel.numpy().copy()
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("tracked weights:", len(model.weights))
print("output layer trained:", not np.allclose(before, model.output_layer.kernel.numpy()))
