# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/35403"
# title = "using a `tf.Tensor` as a Python `bool` is not allowed in Graph execution. Use Eager execution or decorate this function with @tf.function."
# sampling = "by-pattern"
# symptom = "OperatorNotAllowedInGraphError: using a `tf.Tensor` as a Python `bool` is not allowed in Graph execution."
# flavour = "tf.keras"
# kind = "Python truth test of a tensor in Dataset.map"
# mistake = "The image loader mapped over the dataset picks the label with a Python conditional expression on tf.strings.regex_full_match(...), a symbolic tensor inside Dataset.map."
# runtime = "raises"
# expected = ["TFL112"]
# ///
import tensorflow as tf


def load_image(img_path, size=(32, 32)):
    label = tf.constant(1, tf.int8) if tf.strings.regex_full_match(img_path, ".*automobile.*") else tf.constant(0, tf.int8)  # <-
    img = tf.image.decode_jpeg(tf.io.read_file(img_path))
    return tf.image.resize(img, size) / 255.0, label


ds_train = (
    tf.data.Dataset.list_files("data/cifar2/train/*/*.jpg")
    .map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
    .shuffle(1000)
    .batch(100)
)
