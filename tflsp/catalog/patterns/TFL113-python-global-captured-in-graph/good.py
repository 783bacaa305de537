"""Values that change are passed in as tensors or kept in a tf.Variable."""

import tensorflow as tf

scale = tf.Variable(1.0)


@tf.function
def apply_scale(x):
    return x * scale


print("scale 1.0 ->", apply_scale(tf.constant(2.0)).numpy())
scale.assign(10.0)
print("scale 10.0 ->", apply_scale(tf.constant(2.0)).numpy())


def descend(steps):
    learning_rate = 0.5

    @tf.function
    def update(w, rate):
        return w - rate

    w = tf.constant(10.0)
    for _ in range(steps):
        w = update(w, tf.constant(learning_rate))
        learning_rate = learning_rate / 2
    return w


print("after 3 halving steps ->", descend(3).numpy())
