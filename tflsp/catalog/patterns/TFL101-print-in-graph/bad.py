"""print() inside a tf.function runs once, at trace time."""

import tensorflow as tf


@tf.function
def double(x):
    print("x =", x)  # [TFL101]
    return x * 2


for value in [1.0, 2.0, 3.0]:
    double(tf.constant(value))
