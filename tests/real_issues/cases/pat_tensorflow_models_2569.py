# /// case
# source = "https://github.com/tensorflow/models/pull/2569"
# title = "Upgrade input pipeline to 1.4, fix shuffle."
# sampling = "by-pattern"
# symptom = "the same examples are batched together every epoch; only the order of whole batches changes"
# flavour = "tf1"
# kind = "shuffle() after batch()"
# mistake = "The input function batches before shuffling, so it shuffles 1e5 batches instead of 1e5 examples and batch composition never changes."
# runtime = "silent"
# expected = ["TFL202"]
# ///
import tensorflow as tf


def input_fn(features, labels, batch_size):
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    dataset = dataset.batch(batch_size)
    dataset = dataset.shuffle(100000)  # <-
    return dataset.repeat()
