"""tf.random ops are part of the graph and draw a new value on every call."""

import tensorflow as tf


def jitter(x):
    return x + tf.random.uniform([], 0, 1000, dtype=tf.int64)


dataset = tf.data.Dataset.range(10).map(jitter)
offsets = [int(v) - i for i, v in enumerate(dataset.as_numpy_iterator())]
print("distinct offsets in the dataset:", len(set(offsets)))


@tf.function
def noisy(x):
    return x * tf.random.uniform([], 0.5, 1.5)


scales = {float(noisy(tf.constant(1.0))) for _ in range(5)}
print("distinct scales from the tf.function:", len(scales))
