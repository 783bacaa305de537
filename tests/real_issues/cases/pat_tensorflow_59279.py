# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/59279"
# title = "Add warning in Dataset.shuffle API for possible data leakage"
# sampling = "by-pattern"
# symptom = "validation and test metrics look too good: examples move between the splits every epoch"
# flavour = "tf.keras"
# kind = "take/skip split of a dataset that reshuffles each iteration"
# mistake = "The widely copied partition helper shuffles (reshuffle_each_iteration defaults to True) and then splits with take/skip, so each epoch draws a different train/val/test partition."
# runtime = "silent"
# expected = ["TFL203"]
# ///
import tensorflow as tf


def get_dataset_partitions_tf(ds, ds_size, train_split=0.8, val_split=0.1, test_split=0.1, shuffle=True, shuffle_size=10000):
    assert (train_split + test_split + val_split) == 1
    if shuffle:
        ds = ds.shuffle(shuffle_size, seed=12)  # <-
    train_size = int(train_split * ds_size)
    val_size = int(val_split * ds_size)
    train_ds = ds.take(train_size)  # <-
    val_ds = ds.skip(train_size).take(val_size)  # <-
    test_ds = ds.skip(train_size).skip(val_size)  # <-
    return train_ds, val_ds, test_ds
