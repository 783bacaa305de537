"""tape.watch(x) makes the tape record what is computed from the tensor x."""

import tensorflow as tf


def slope(value):
    x = tf.constant(value)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


print("dy/dx:", slope(3.0))
