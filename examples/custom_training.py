"""A custom training loop written by someone who just left Sequential behind.

Run `tflsp check examples/` to see what tflsp thinks of it.
"""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class Scaler(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")

    def call(self, inputs):
        print("scaling", inputs.shape)
        return inputs * self.scale


model = keras.Sequential([keras.Input(shape=(4,)), Scaler(), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print("loss:", loss.numpy())
    return loss


features = np.random.rand(64, 4).astype("float32")
labels = np.random.rand(64, 1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(64).batch(16)

for epoch in range(2):
    for x, y in dataset:
        train_step(x, y)
