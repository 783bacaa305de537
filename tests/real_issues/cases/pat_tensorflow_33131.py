# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/33131"
# title = "how to assign value to a EagerTensor slice? ----'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment"
# sampling = "by-pattern"
# symptom = "TypeError: 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment"
# flavour = "tf.keras"
# kind = "item assignment on a tensor"
# mistake = "A YOLO-style head rewrites one channel of the prediction tensor in place, as one would in NumPy; tensors are immutable."
# runtime = "raises"
# expected = ["TFL109"]
# ///
import tensorflow as tf


def decode(prediction):
    prediction[:, :, 0] = tf.math.sigmoid(prediction[:, :, 0])  # <-
    return prediction


decode(tf.ones([3, 3, 3]))
