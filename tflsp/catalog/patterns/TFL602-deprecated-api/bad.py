"""Deprecated spellings: they warn today, and some already fail on Keras 3."""

import tensorflow as tf


@tf.function
def scale(x):
    return x * 2.0


print("scaled:", scale(tf.constant([1.0, 2.0])).numpy())
print("GPU available:", tf.test.is_gpu_available())  # [TFL602]
on_cpu = tf.constant([1.0, 2.0]).cpu()  # [TFL602]
print("copied to:", on_cpu.device)
optimizer = tf.keras.optimizers.Adam(lr=0.01)  # [TFL602]
print("learning rate is 0.01:", abs(float(optimizer.learning_rate) - 0.01) < 1e-6)
