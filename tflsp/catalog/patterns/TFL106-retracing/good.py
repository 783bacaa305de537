"""Pass tensors, and create each tf.function once, outside the loop."""

import tensorflow as tf

data = tf.constant([1.0, 2.0, 3.0])


@tf.function
def scaled(x, factor):
    return x * factor


for step in range(8):
    scaled(data, tf.constant(step, dtype=tf.float32))
print("traces of scaled():", scaled.experimental_get_tracing_count())


@tf.function
def shifted(x):
    return x + 1.0


for step in range(8):
    shifted(data)
print("traces of the shifted() functions:", shifted.experimental_get_tracing_count())
