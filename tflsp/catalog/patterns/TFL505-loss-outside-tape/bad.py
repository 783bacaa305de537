"""Only what runs inside the with-block is recorded by the tape."""

import tensorflow as tf

w = tf.Variable(3.0)


def gradient(x):
    with tf.GradientTape() as tape:
        prediction = w * x
    loss = (prediction - 1.0) ** 2  # [TFL505]
    return tape.gradient(loss, w)


print("gradient:", gradient(tf.constant(2.0)))
