"""add_weight in build creates the kernel once; Keras tracks and trains it."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Project(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 1), initializer="ones", name="kernel")

    def call(self, x):
        return tf.matmul(x, self.kernel)


x = np.ones((8, 3), "float32")
y = np.zeros((8, 1), "float32")
layer = Project()
layer(x)
print("tracked weights after an eager call:", len(layer.weights))
model = keras.Sequential([keras.Input(shape=(3,)), layer])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("trainable weights after fit:", len(model.trainable_weights))
