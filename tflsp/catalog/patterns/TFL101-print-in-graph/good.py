"""tf.print() is part of the graph and prints on every call."""

import tensorflow as tf


@tf.function
def double(x):
    tf.print("x =", x)
    return x * 2


for value in [1.0, 2.0, 3.0]:
    double(tf.constant(value))
