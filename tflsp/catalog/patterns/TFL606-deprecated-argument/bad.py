"""Arguments that TensorFlow still accepts, but deprecates or ignores."""

import tensorflow as tf

params = tf.constant([10, 20, 30])
print("gathered:", tf.gather(params, [0, 2], validate_indices=True).numpy())  # [TFL606]


@tf.function(experimental_relax_shapes=True)  # [TFL606]
def double(x):
    return x * 2


for length in (2, 3, 4, 5):
    double(tf.zeros([length]))
print("traces of double:", double.experimental_get_tracing_count())


@tf.function(experimental_follow_type_hints=True)  # [TFL606]
def shift(x: tf.Tensor):
    return x + 1


for step in range(3):
    shift(step)  # [TFL106]
print("traces of shift:", shift.experimental_get_tracing_count())


def numbers():
    yield from range(3)


dataset = tf.data.Dataset.from_generator(numbers, output_types=tf.int64, output_shapes=())  # [TFL606]
print("generated:", [int(n) for n in dataset])
