# /// case
# source = "https://github.com/sql-machine-learning/sqlflow/issues/2143"
# title = "Data in each epoch is same in train cache"
# sampling = "by-pattern"
# symptom = "every training epoch reads exactly the same batches in the same order"
# flavour = "tf.keras"
# kind = "cache() after shuffle() freezes the first epoch's order"
# mistake = "The training input function shuffles and batches before cache(), so the cached first pass is replayed unchanged in every epoch."
# runtime = "silent"
# expected = ["TFL206"]
# ///
import tensorflow as tf


def input_fn(features, labels, batch_size, shuffle_size, epochs):
    train_dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    train_dataset = (
        train_dataset.shuffle(shuffle_size)
        .batch(batch_size)
        .cache("cache_train")  # <-
        .repeat(epochs)
    )
    return train_dataset
