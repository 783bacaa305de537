"""log_softmax and log_sigmoid compute the same values without underflowing to -inf."""

import tensorflow as tf

logits = tf.constant([[30.0, -80.0, 0.0], [2.0, 1.0, 0.1]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])

with tf.GradientTape() as tape:
    tape.watch(logits)
    log_probabilities = tf.nn.log_softmax(logits, axis=-1)
    loss = -tf.reduce_sum(labels * log_probabilities, axis=-1)
print("loss per example is finite:", tf.math.is_finite(loss).numpy().tolist())
print("gradient has NaN:", bool(tf.reduce_any(tf.math.is_nan(tape.gradient(loss, logits)))))

gates = tf.constant([-120.0, 0.0])
log_gates = tf.math.log_sigmoid(gates)
print("log of sigmoid is finite:", tf.math.is_finite(log_gates).numpy().tolist())
print("log_sigmoid(-120) is -120:", bool(abs(log_gates[0] + 120.0) < 1e-3))
