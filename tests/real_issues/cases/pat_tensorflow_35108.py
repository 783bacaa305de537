# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/35108"
# title = "tf.py_function is unusable in map function"
# sampling = "by-pattern"
# symptom = "ValueError raised by tf.reshape: the shape of the py_function result is unknown when the map function is traced"
# flavour = "tf.keras"
# kind = "py_function/numpy_function result used without set_shape (unknown static shape)"
# mistake = "The map function reshapes the result of tf.py_function to its own get_shape(), which is unknown while tracing; the result needs set_shape() with the known shape."
# runtime = "raises"
# expected = ["TFL208"]
# ///
import numpy as np
import tensorflow as tf


def make_data(i):
    return np.uint8(i) * np.ones([20, 256, 256, 3], dtype=np.float32) / 10.0


@tf.function
def make_clean_data(i):
    ones = tf.py_function(make_data, [i], tf.float32)
    ones = tf.reshape(ones, ones.get_shape())  # <-
    return tf.image.resize(ones, [224, 224])


ds = tf.data.Dataset.range(10).map(make_clean_data)
