"""Create the variable once, outside the function, and update it inside."""

import tensorflow as tf

total = tf.Variable(0.0)


@tf.function
def accumulate(x):
    total.assign_add(tf.reduce_sum(x))
    return total.read_value()


print("total:", float(accumulate(tf.constant([1.0, 2.0]))))
print("total:", float(accumulate(tf.constant([1.0, 2.0]))))
