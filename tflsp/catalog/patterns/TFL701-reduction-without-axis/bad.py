"""A full reduction used to normalise a batch of rows."""

import numpy as np
import tensorflow as tf

scores = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
shares = scores / tf.reduce_sum(scores)  # [TFL701]
print("each row of shares sums to 1:", np.allclose(tf.reduce_sum(shares, axis=1), 1.0))

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
exps = tf.exp(logits)
total = tf.reduce_sum(exps)  # [TFL701]
probabilities = exps / total
print("each row of probabilities sums to 1:", np.allclose(tf.reduce_sum(probabilities, axis=-1), 1.0))
