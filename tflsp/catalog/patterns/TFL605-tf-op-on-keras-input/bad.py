"""Keras 3 functional models accept keras.ops and layers, not raw TensorFlow ops."""

import tensorflow as tf

inputs = tf.keras.Input(shape=(3,))
total = tf.reduce_sum(inputs, axis=-1, keepdims=True)  # [TFL605]
model = tf.keras.Model(inputs, total)
print("output:", model(tf.ones((1, 3))).numpy())
