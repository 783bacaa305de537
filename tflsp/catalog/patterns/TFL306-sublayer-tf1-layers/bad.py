"""tf.compat.v1.layers inside a Keras model: gone in Keras 3, untracked in Keras 2."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Net(keras.Model):
    def call(self, x):
        return tf.compat.v1.layers.dense(x, 1)  # [TFL306]


x = np.ones((2, 3), "float32")
model = Net()
first = model(x).numpy()
second = model(x).numpy()
print("trainable weights:", len(model.trainable_weights))
print("same output twice:", np.allclose(first, second))
