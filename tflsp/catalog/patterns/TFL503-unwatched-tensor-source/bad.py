"""A tape records operations on variables by itself; plain tensors must be watched."""

import tensorflow as tf


def slope(value):
    x = tf.constant(value)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)  # [TFL503]


print("dy/dx:", slope(3.0))
