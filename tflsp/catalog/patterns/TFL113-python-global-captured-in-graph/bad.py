"""A tf.function keeps the Python values it read while it was traced."""

import tensorflow as tf

scale = 1.0


@tf.function
def apply_scale(x):
    return x * scale  # [TFL113]


print("scale 1.0 ->", apply_scale(tf.constant(2.0)).numpy())
scale = 10.0
print("scale 10.0 ->", apply_scale(tf.constant(2.0)).numpy())


def descend(steps):
    learning_rate = 0.5

    @tf.function
    def update(w):
        return w - learning_rate  # [TFL113]

    w = tf.constant(10.0)
    for _ in range(steps):
        w = update(w)
        learning_rate = learning_rate / 2
    return w


print("after 3 halving steps ->", descend(3).numpy())
