# /// case
# source = "https://github.com/d2l-ai/d2l-en/pull/2700"
# title = "Shuffle before batching in TF load_data_fashion_mnist"
# sampling = "by-pattern"
# symptom = "every epoch sees the same 64-item groups; only their order changes"
# flavour = "tf.keras"
# kind = "shuffle() after batch()"
# mistake = "The Fashion-MNIST loader chains .batch(batch_size).shuffle(n), freezing batch composition for the dataset's lifetime."
# runtime = "silent"
# expected = ["TFL202"]
# ///
import tensorflow as tf


def load_data_fashion_mnist(batch_size, resize=None):
    mnist_train, mnist_test = tf.keras.datasets.fashion_mnist.load_data()

    def process(x, y):
        return tf.expand_dims(x, axis=3) / 255, tf.cast(y, dtype="int32")

    def resize_fn(x, y):
        return (tf.image.resize_with_pad(x, resize, resize) if resize else x, y)

    train = tf.data.Dataset.from_tensor_slices(process(*mnist_train)).batch(batch_size).shuffle(len(mnist_train[0])).map(resize_fn)  # <-
    test = tf.data.Dataset.from_tensor_slices(process(*mnist_test)).batch(batch_size).map(resize_fn)
    return train, test
