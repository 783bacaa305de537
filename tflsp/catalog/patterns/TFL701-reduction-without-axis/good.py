"""Say which axis is reduced, and keep it for broadcasting."""

import numpy as np
import tensorflow as tf

scores = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
shares = scores / tf.reduce_sum(scores, axis=-1, keepdims=True)
print("each row of shares sums to 1:", np.allclose(tf.reduce_sum(shares, axis=1), 1.0))

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
probabilities = tf.nn.softmax(logits, axis=-1)
print("each row of probabilities sums to 1:", np.allclose(tf.reduce_sum(probabilities, axis=-1), 1.0))
