# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/27680"
# title = "tf.data.Dataset.shuffle produces the same results at each dataset iteration in tensorflow 2 alpha"
# sampling = "by-pattern"
# symptom = "none with the maintainer's factory: each epoch gets a new order"
# flavour = "keras3"
# kind = "shuffle() before batch() in a dataset factory"
# mistake = "None: elements are shuffled before batching, and a fresh dataset is built per epoch, as the maintainer recommended."
# clean = true
# ///
import numpy as np
import tensorflow as tf

data = np.arange(10)


def make_dataset():
    return tf.data.Dataset.from_tensor_slices(data).shuffle(100).batch(2)


for _ in range(2):
    for d in make_dataset():
        tf.print(d)
