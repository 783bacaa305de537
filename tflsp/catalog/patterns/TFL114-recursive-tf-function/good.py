"""The same computations as loops that AutoGraph turns into one graph."""

import tensorflow as tf


@tf.function
def factorial(n):
    result = tf.constant(1)
    for i in tf.range(2, n + 1):
        result = result * i
    return result


@tf.function
def is_even(n):
    return tf.equal(n % 2, 0)


print("factorial(5):", factorial(tf.constant(5)).numpy())
print("factorial(6):", factorial(tf.constant(6)).numpy())
print("traces of factorial:", factorial.experimental_get_tracing_count())
print("is_even(4):", bool(is_even(tf.constant(4))))
print("traces of is_even:", is_even.experimental_get_tracing_count())
