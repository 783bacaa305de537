"""A GradientTape is released after its first gradient() call unless it is persistent."""

import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)


def gradients(x):
    with tf.GradientTape() as tape:
        y = w * x + b
    dw = tape.gradient(y, w)
    db = tape.gradient(y, b)  # [TFL502]
    return dw, db


dw, db = gradients(tf.constant(3.0))
print("dy/dw:", float(dw), "dy/db:", float(db))
