"""A dataset that reshuffles on every pass, split with take()/skip(): test leaks into train."""

import tensorflow as tf

N = 100
ds = tf.data.Dataset.range(N).shuffle(N, seed=1)  # [TFL203]
test = ds.take(20)
train = ds.skip(20)

# Each pass over test or train reshuffles ds on its own, so the two "halves" overlap.
test_epoch1 = set(test.as_numpy_iterator())
train_epoch1 = set(train.as_numpy_iterator())
print("test samples also in train (epoch 1):", len(test_epoch1 & train_epoch1))
test_epoch2 = set(test.as_numpy_iterator())
print("test set changed between epochs:", test_epoch2 != test_epoch1)
