"""A tf.function keeps the Python values it read while it was traced."""

import tensorflow as tf

scale = 1.0


@tf.function
def apply_scale(x):
    return x * scale  # [TFL113]


apply_scale(tf.constant(2.0))  # first call: traced while the scale is 1.0
scale = 10.0
print("new scale used:", abs(float(apply_scale(tf.constant(2.0))) - 20.0) < 1e-6)


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


print("every halved rate used:", abs(float(descend(3)) - 9.125) < 1e-6)
