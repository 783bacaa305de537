""".numpy() on a symbolic tensor fails as soon as the function is traced."""

import tensorflow as tf


@tf.function
def total(x):
    value = tf.reduce_sum(x).numpy()  # [TFL102]
    return value


dataset = tf.data.Dataset.range(3).map(lambda v: v * int(v.numpy()))  # [TFL102]

print(total(tf.constant([1.0, 2.0])))
