"""Build a new tensor with tensor_scatter_nd_update; assign() into a variable slice."""

import tensorflow as tf

scores = tf.zeros([3])
scores = tf.tensor_scatter_nd_update(scores, [[0]], [1.0])
print("scores:", scores.numpy().tolist())

weights = tf.Variable([1.0, 2.0, 3.0])
weights[0].assign(5.0)
print("weights:", weights.numpy().tolist())
