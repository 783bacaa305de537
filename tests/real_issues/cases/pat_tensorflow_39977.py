# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/39977"
# title = "map the input image path dataset."
# sampling = "by-pattern"
# symptom = "the map function cannot read the path: the element is a symbolic string tensor"
# flavour = "tf.keras"
# kind = "Python/NumPy code on symbolic tensors inside Dataset.map"
# mistake = "A Pascal VOC loader maps a function that turns the path tensor into a NumPy array and reads it with cv2.imread; Dataset.map passes symbolic tensors."
# runtime = "raises"
# expected = ["TFL201"]
# ///
import cv2
import numpy as np
import tensorflow as tf


def load_and_resize(image_path, bbox):
    paths = np.array(image_path)  # <-
    image = cv2.imread(paths[0].decode("utf-8"))  # <-
    image = cv2.resize(image, (300, 300))
    return tf.convert_to_tensor(image, dtype=tf.uint8), bbox


def make_dataset(paths, boxes):
    ds = tf.data.Dataset.from_tensor_slices((paths, boxes)).shuffle(100).batch(2)
    return ds.map(load_and_resize).prefetch(tf.data.AUTOTUNE)
