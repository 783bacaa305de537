"""Stay with TensorFlow ops between the variables and the loss."""

import numpy as np
import tensorflow as tf

w = tf.Variable([1.0, 2.0])
target = np.array([0.5, 0.5], dtype="float32")


def gradient_with_tf_ops():
    with tf.GradientTape() as tape:
        prediction = w * 2.0
        error = tf.square(prediction - target)
        loss = tf.reduce_mean(error)
    print("loss for the log:", loss.numpy())
    return tape.gradient(loss, w)


def gradient_of_sum():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w**2)
    return tape.gradient(loss, w)


print("gradient (tf.square):", gradient_with_tf_ops().numpy())
print("gradient (reduce_sum):", gradient_of_sum().numpy())
