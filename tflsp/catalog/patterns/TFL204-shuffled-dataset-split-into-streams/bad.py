"""x and y taken from one shuffled dataset are two passes with two different orders."""

import tensorflow as tf

pairs = tf.data.Dataset.range(10).map(lambda i: (i, i * 100))
shuffled = pairs.shuffle(10, seed=3)
x = shuffled.map(lambda a, b: a)
y = shuffled.map(lambda a, b: b)

zipped = tf.data.Dataset.zip((x, y))  # [TFL204]
mismatched = sum(int(b) != int(a) * 100 for a, b in zipped)
print("mismatched pairs:", mismatched, "of 10")
