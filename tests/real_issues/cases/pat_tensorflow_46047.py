# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/46047"
# title = "pointclouds_pl = tf.placeholder(tf.float32, shape=(batch_size, num_point, 3)) AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# flavour = "tf1"
# kind = "TF1 API removed in TF2 (placeholder/Session/contrib/...)"
# mistake = "PointNet-style training code declares its inputs with tf.placeholder, which TF 2 removed."
# runtime = "raises"
# expected = ["TFL601"]
# ///
import tensorflow as tf


def placeholder_inputs(batch_size, num_point):
    pointclouds_pl = tf.placeholder(tf.float32, shape=(batch_size, num_point, 3))  # <-
    labels_pl = tf.placeholder(tf.int32, shape=(batch_size,))  # <-
    return pointclouds_pl, labels_pl
