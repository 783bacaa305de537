"""A hand-written training step that never updates anything."""

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = tf.random.normal((8, 3))
y = tf.random.normal((8, 1))

with tf.GradientTape() as tape:
    predictions = model(x)
loss = tf.reduce_mean(tf.square(predictions - y))

grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(model.trainable_variables, grads))

scale = tf.constant(2.0)
with tf.GradientTape() as tape2:
    out = scale * 3.0
print(tape2.gradient(out, scale))
