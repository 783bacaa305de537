"""Shuffle the samples first, then batch them."""

import tensorflow as tf

ds = tf.data.Dataset.range(12).shuffle(12, seed=7).batch(4)

batches = [batch.tolist() for batch in ds.as_numpy_iterator()]
print("batches:", batches)
consecutive = all(batch == list(range(batch[0], batch[0] + 4)) for batch in batches)
print("every batch holds 4 neighbouring samples:", consecutive)
