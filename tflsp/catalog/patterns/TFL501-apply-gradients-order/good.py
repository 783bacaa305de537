"""Pair each gradient with its variable: zip(grads, variables)."""

import numpy as np
import tensorflow as tf

w = tf.Variable([1.0, 2.0], name="w")
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


def train_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


train_step()
# One SGD step on sum(w * w): w - 0.1 * 2w.
print("updated w is w - 0.1 * 2w:", np.allclose(w.numpy(), [0.8, 1.6]))
