"""Ask one tape for every gradient at once (or make it persistent and delete it after)."""

import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)


def gradients(x):
    with tf.GradientTape() as tape:
        y = w * x + b
    dw, db = tape.gradient(y, [w, b])
    return dw, db


def gradients_persistent(x):
    with tf.GradientTape(persistent=True) as tape:
        y = w * x + b
    dw = tape.gradient(y, w)
    db = tape.gradient(y, b)
    del tape
    return dw, db


dw, db = gradients(tf.constant(3.0))
print("dy/dw:", float(dw), "dy/db:", float(db))
dw, db = gradients_persistent(tf.constant(3.0))
print("dy/dw:", float(dw), "dy/db:", float(db))
