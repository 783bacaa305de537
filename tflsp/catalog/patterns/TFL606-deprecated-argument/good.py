"""The current spellings: no warnings, and arguments that do what they say."""

import tensorflow as tf

params = tf.constant([10, 20, 30])
print("gathered:", tf.gather(params, [0, 2]).numpy())


@tf.function(reduce_retracing=True)
def double(x):
    return x * 2


for length in (2, 3, 4, 5):
    double(tf.zeros([length]))
print("traces of double:", double.experimental_get_tracing_count())


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def shift(x):
    return x + 1


for step in range(3):
    shift(step)
print("traces of shift:", shift.experimental_get_tracing_count())


def numbers():
    yield from range(3)


signature = tf.TensorSpec(shape=(), dtype=tf.int64)
dataset = tf.data.Dataset.from_generator(numbers, output_signature=signature)
print("generated:", [int(n) for n in dataset])
