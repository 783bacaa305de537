"""A hand-written cross-entropy: log() of softmax probabilities."""

import tensorflow as tf

logits = tf.constant([[30.0, -80.0, 0.0], [2.0, 1.0, 0.1]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

with tf.GradientTape() as tape:
    tape.watch(logits)
    probabilities = tf.nn.softmax(logits, axis=-1)
    log_probabilities = tf.math.log(probabilities)  # [TFL704]
    loss = -tf.reduce_sum(labels * log_probabilities, axis=-1)
print("loss per example is finite:", tf.math.is_finite(loss).numpy().tolist())
print("gradient has NaN:", bool(tf.reduce_any(tf.math.is_nan(tape.gradient(loss, logits)))))

gates = tf.constant([-120.0, 0.0])
log_gates = tf.math.log(tf.sigmoid(gates))  # [TFL704]
print("log of sigmoid is finite:", tf.math.is_finite(log_gates).numpy().tolist())
