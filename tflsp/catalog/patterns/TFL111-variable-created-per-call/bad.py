"""A tf.Variable created in the body of a tf.function is created on every trace."""

import tensorflow as tf


@tf.function
def accumulate(x):
    total = tf.Variable(0.0)  # [TFL111]
    total.assign_add(tf.reduce_sum(x))
    return total.read_value()


print("total:", float(accumulate(tf.constant([1.0, 2.0]))))
