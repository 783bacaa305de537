"""The TensorFlow 2 spellings: tf.math, tf.random, Keras optimizers, eager code."""

import tensorflow as tf

x = tf.constant([1.0, 2.0])
print("log:", tf.math.log(x).numpy())

optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
print("sample shape:", tf.random.normal([2]).shape)
print("optimizer:", type(optimizer).__name__)
