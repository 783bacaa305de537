"""Tensors are immutable; variables are changed with assign(), not item assignment."""

import tensorflow as tf

scores = tf.zeros([3])
try:
    scores[0] = 1.0  # [TFL109]
except TypeError as error:
    print("tensor item assignment failed:", error)

weights = tf.Variable([1.0, 2.0, 3.0])
weights[0] = 5.0  # [TFL109]
print("weights:", weights.numpy().tolist())
