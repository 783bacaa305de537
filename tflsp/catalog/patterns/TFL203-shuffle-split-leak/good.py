"""Fix the order once (reshuffle_each_iteration=False) before splitting, then shuffle train."""

import tensorflow as tf

N = 100
ds = tf.data.Dataset.range(N).shuffle(N, seed=1, reshuffle_each_iteration=False)
test = ds.take(20)
train = ds.skip(20).shuffle(80)

test_epoch1 = set(test.as_numpy_iterator())
train_epoch1 = set(train.as_numpy_iterator())
print("test samples also in train (epoch 1):", len(test_epoch1 & train_epoch1))
test_epoch2 = set(test.as_numpy_iterator())
print("test set changed between epochs:", test_epoch2 != test_epoch1)
