"""shuffle() after batch() reorders whole batches; the samples inside stay together."""

import tensorflow as tf

ds = tf.data.Dataset.range(12).batch(4).shuffle(3, seed=7)  # [TFL202]

batches = [batch.tolist() for batch in ds.as_numpy_iterator()]
print("batches:", batches)
consecutive = all(batch == list(range(batch[0], batch[0] + 4)) for batch in batches)
print("every batch holds 4 neighbouring samples:", consecutive)
