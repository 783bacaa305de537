# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/36649"
# title = "IndexError: list index out of range when using tf.dataset and keras for autoencoder"
# sampling = "by-symptom: When providing `x` as a tf.data.Dataset, `y` should not be passed. Instead, the targets should be included as part of the tf.data.Dataset"
# symptom = "You passed a dataset or dataset iterator as input `x` to your model. In that case, you should not specify a target (`y`) argument, since the dataset or dataset iterator generates both input data and target data."
# flavour = "tf.keras"
# kind = "targets passed as y next to a dataset or generator"
# mistake = "An autoencoder is trained on an image dataset that yields images only; the user passes the same dataset again as y instead of mapping each image to an (image, image) pair."
# runtime = "raises"
# expected = ["TFL817"]
# ///
import tensorflow as tf


def decode(path):
    image = tf.io.decode_png(tf.io.read_file(path), channels=3)
    return tf.image.resize(tf.cast(image, tf.float32) / 255.0, (360, 360))


def train(autoencoder, paths):
    images = tf.data.Dataset.from_tensor_slices(paths).map(decode).batch(16)
    autoencoder.compile(optimizer="adam", loss="mse")
    autoencoder.fit(images, images, epochs=20)  # <-
