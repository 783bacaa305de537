"""cache() after shuffle() stores the first epoch's order and replays it in every epoch."""

import tensorflow as tf

ds = tf.data.Dataset.range(10).shuffle(10).cache()  # [TFL206]

epochs = [list(ds.as_numpy_iterator()) for _ in range(3)]
print("same order in every epoch:", all(order == epochs[0] for order in epochs))
