"""A full reduction used to normalise a batch of rows."""

import tensorflow as tf

scores = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
shares = scores / tf.reduce_sum(scores)  # [TFL701]
print("row sums of shares:", tf.reduce_sum(shares, axis=1).numpy())

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
exps = tf.exp(logits)
total = tf.reduce_sum(exps)  # [TFL701]
probabilities = exps / total
print("row sums of probabilities:", tf.reduce_sum(probabilities, axis=-1).numpy())
