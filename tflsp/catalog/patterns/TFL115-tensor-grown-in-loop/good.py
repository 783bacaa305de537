"""Collect the pieces, then build the tensor once; in graph code use tf.TensorArray."""

import tensorflow as tf


def squares_eager(n):
    pieces = [float(i * i) for i in range(n)]
    return tf.constant(pieces)


print("eager:", squares_eager(4).numpy())


@tf.function
def squares(n):
    out = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        out = out.write(i, tf.cast(i * i, tf.float32))
    return out.stack()


print("graph:", squares(tf.constant(4)).numpy())
