"""The current spellings of the same things."""

import tensorflow as tf


@tf.function
def scale(x):
    return x * 2.0


print("scaled:", scale(tf.constant([1.0, 2.0])).numpy())
print("GPU available:", bool(tf.config.list_physical_devices("GPU")))
with tf.device("/CPU:0"):
    on_cpu = tf.identity(tf.constant([1.0, 2.0]))
print("copied to:", on_cpu.device)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
print("learning rate is 0.01:", abs(float(optimizer.learning_rate) - 0.01) < 1e-6)
