"""Keep tensors inside the graph; call .numpy() on the result, outside."""

import tensorflow as tf


@tf.function
def total(x):
    return tf.reduce_sum(x)


dataset = tf.data.Dataset.range(3).map(lambda v: v * v)

print(total(tf.constant([1.0, 2.0])).numpy())
print(list(dataset.as_numpy_iterator()))
