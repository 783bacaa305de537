"""Keep x and y in one element: split them before shuffling, and shuffle the zipped pairs."""

import tensorflow as tf

pairs = tf.data.Dataset.range(10).map(lambda i: (i, i * 100))
x = pairs.map(lambda a, b: a)
y = pairs.map(lambda a, b: b)

zipped = tf.data.Dataset.zip((x, y)).shuffle(10, seed=3)
mismatched = sum(int(b) != int(a) * 100 for a, b in zipped)
print("mismatched pairs:", mismatched, "of 10")
