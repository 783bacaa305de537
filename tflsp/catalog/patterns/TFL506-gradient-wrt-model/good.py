"""Ask for gradients with respect to model.trainable_variables."""

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
x = tf.ones((4, 2))


def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    return tape.gradient(loss, model.trainable_variables)


grads = step()
print("gradients:", len(grads))
