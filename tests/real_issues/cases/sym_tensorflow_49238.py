# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/49238"
# title = "ValueError: as_list() is not defined on an unknown TensorShape."
# sampling = "by-symptom: as_list() is not defined on an unknown TensorShape py_function dataset map"
# symptom = "ValueError: as_list() is not defined on an unknown TensorShape."
# flavour = "tf.keras"
# kind = "py_function/numpy_function result used without set_shape (unknown static shape)"
# mistake = "The COCO loader runs in tf.py_function inside Dataset.map, and its image and label outputs reach model.fit() without set_shape(), so Keras sees tensors of unknown rank."
# runtime = "raises"
# expected = ["TFL208"]
# ///
import numpy as np
import tensorflow as tf


def train_images(fn):
    file_name = bytes.decode(fn.numpy())
    image = tf.io.decode_image(tf.io.read_file("train2014/" + file_name), channels=3)
    image = tf.image.resize(image, (227, 227)) / 255.0
    label = np.zeros(90, dtype=np.uint8)
    return image, label


def make_dataset(file_names, batch_size):
    ds = tf.data.Dataset.from_tensor_slices(file_names)
    ds = ds.map(lambda x: tf.py_function(train_images, [x], [tf.float32, tf.uint8]))  # <-
    return ds.batch(batch_size)


def train(model, file_names, batch_size):
    ds_train = make_dataset(file_names, batch_size)
    return model.fit(ds_train, epochs=10)
