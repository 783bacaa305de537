"""TF1-era code that TF 2.x no longer accepts, half migrated."""

import tensorflow as tf

tf.enable_eager_execution()
x = tf.placeholder(tf.float32, shape=[None, 3])
weights = tf.get_variable("w", shape=[3, 1])
noise = tf.random_normal([3])
optimizer = tf.train.AdamOptimizer(learning_rate=0.01)

model = tf.keras.Sequential(tf.keras.layers.Dense(1))
hidden = tf.keras.layers(64, activation="relu")

inputs = tf.keras.Input(shape=(3,))
total = tf.reduce_sum(inputs, axis=-1)


@tf.function(experimental_relax_shapes=True)
def scale(values):
    return values * 2.0
