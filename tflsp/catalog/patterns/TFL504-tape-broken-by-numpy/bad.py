"""NumPy values carry no gradient: the tape loses track of the variable."""

import numpy as np
import tensorflow as tf

w = tf.Variable([1.0, 2.0])
target = np.array([0.5, 0.5], dtype="float32")


def gradient_through_numpy():
    with tf.GradientTape() as tape:
        prediction = w * 2.0
        error = np.square(prediction - target)  # [TFL504]
        loss = tf.reduce_mean(error)
    return tape.gradient(loss, w)


def gradient_through_dot_numpy():
    with tf.GradientTape() as tape:
        values = w.numpy()  # [TFL504]
        loss = tf.reduce_sum(tf.constant(values) ** 2)
    return tape.gradient(loss, w)


print("gradient (np.square):", gradient_through_numpy())
print("gradient (.numpy()):", gradient_through_dot_numpy())
