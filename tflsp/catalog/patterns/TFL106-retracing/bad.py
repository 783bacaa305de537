"""Python numbers as tf.function arguments, and tf.functions created in a loop, retrace."""

import tensorflow as tf

data = tf.constant([1.0, 2.0, 3.0])


@tf.function
def scaled(x, factor):
    return x * factor


for step in range(8):
    scaled(data, step)  # [TFL106]
print("traces of scaled():", scaled.experimental_get_tracing_count())

traces = 0
for step in range(8):

    @tf.function  # [TFL106]
    def shifted(x):
        return x + 1.0

    shifted(data)
    traces += shifted.experimental_get_tracing_count()
print("traces of the shifted() functions:", traces)
