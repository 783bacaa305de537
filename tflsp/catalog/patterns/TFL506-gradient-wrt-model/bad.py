"""tape.gradient() needs the model's variables, not the model object."""

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
x = tf.ones((4, 2))


def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    return tape.gradient(loss, model)  # [TFL506]


grads = step()
print("gradients:", len(grads))
