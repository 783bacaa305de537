"""A tf.function that calls itself, directly or through a helper."""

import tensorflow as tf


@tf.function
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)  # [TFL114]


@tf.function
def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)  # [TFL114]


# Python ints: every level is a new trace, unrolled into its own graph.
print("factorial(5):", factorial(5).numpy())
print("traces of factorial:", factorial.experimental_get_tracing_count())
print("is_even(4):", bool(is_even(4)))
print("traces of is_even:", is_even.experimental_get_tracing_count())
# A tensor: tracing recurses until Python gives up.
print(factorial(tf.constant(5)))
