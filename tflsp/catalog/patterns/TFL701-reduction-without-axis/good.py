"""Say which axis is reduced, and keep it for broadcasting."""

import tensorflow as tf

scores = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
shares = scores / tf.reduce_sum(scores, axis=-1, keepdims=True)
print("row sums of shares:", tf.reduce_sum(shares, axis=1).numpy())

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
probabilities = tf.nn.softmax(logits, axis=-1)
print("row sums of probabilities:", tf.reduce_sum(probabilities, axis=-1).numpy())
