"""apply_gradients() takes (gradient, variable) pairs; zip() in the other order fails."""

import tensorflow as tf

w = tf.Variable([1.0, 2.0], name="w")
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


def train_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip([w], grads))  # [TFL501]


train_step()
print("updated w:", w.numpy())
