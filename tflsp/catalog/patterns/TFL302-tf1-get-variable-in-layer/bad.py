"""tf.compat.v1.get_variable in a layer's call makes variables Keras never tracks."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Project(keras.layers.Layer):
    def call(self, x):
        kernel = tf.compat.v1.get_variable(  # [TFL302]
            "kernel", shape=(3, 1), initializer=tf.compat.v1.ones_initializer()
        )
        return tf.matmul(x, kernel)


x = np.ones((8, 3), "float32")
y = np.zeros((8, 1), "float32")
layer = Project()
layer(x)
print("tracked weights after an eager call:", len(layer.weights))
model = keras.Sequential([keras.Input(shape=(3,)), layer])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("trainable weights after fit:", len(model.trainable_weights))
