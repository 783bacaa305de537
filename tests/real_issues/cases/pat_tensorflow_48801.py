# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/48801"
# title = "Accessing numpy array from a Tensor object using dataset map"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Tensor' object has no attribute 'numpy'"
# flavour = "tf.keras"
# kind = "Python/NumPy code on symbolic tensors inside Dataset.map"
# mistake = "The function mapped over the dataset calls tensor.numpy(); map traces it into a graph, so the element is symbolic (tf.py_function is needed)."
# runtime = "raises"
# expected = ["TFL201"]
# ///
import numpy as np
import tensorflow as tf


def to_spectrum(signal):
    values = signal.numpy()  # <-
    return np.abs(np.fft.rfft(values)).astype(np.float32)


ds = tf.data.Dataset.from_tensor_slices(np.random.rand(10, 128).astype(np.float32))
ds = ds.map(to_spectrum)
