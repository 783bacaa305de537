"""Cache first, then shuffle: the cached elements are reshuffled in every epoch."""

import tensorflow as tf

ds = tf.data.Dataset.range(10).cache().shuffle(10)

epochs = [list(ds.as_numpy_iterator()) for _ in range(3)]
print("same order in every epoch:", all(order == epochs[0] for order in epochs))
