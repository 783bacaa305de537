"""Growing a tensor with tf.concat, one element per loop iteration."""

import tensorflow as tf


def squares_eager(n):
    out = tf.zeros([0])
    for i in range(n):
        out = tf.concat([out, [float(i * i)]], axis=0)  # [TFL115]
    return out


print("eager:", squares_eager(4).numpy())


@tf.function
def squares(n):
    out = tf.zeros([0])
    for i in tf.range(n):
        out = tf.concat([out, [tf.cast(i * i, tf.float32)]], axis=0)  # [TFL115]
    return out


print("graph:", squares(tf.constant(4)).numpy())
