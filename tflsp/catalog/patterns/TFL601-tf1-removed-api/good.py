"""The TensorFlow 2 spellings: tf.math, tf.random, Keras optimizers, eager code."""

import math

import numpy as np
import tensorflow as tf

x = tf.constant([1.0, 2.0])
print("log matches math.log:", np.allclose(tf.math.log(x).numpy(), [0.0, math.log(2.0)]))

optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
print("sample shape:", tf.random.normal([2]).shape)
print("optimizer:", type(optimizer).__name__)
