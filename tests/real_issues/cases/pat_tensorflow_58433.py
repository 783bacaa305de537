# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/58433"
# title = "OperatorNotAllowedInGraphError: using random seed in tf.function"
# sampling = "by-pattern"
# symptom = "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"
# flavour = "tf.keras"
# kind = "tf.random.set_seed called with a tensor inside tf.function"
# mistake = "To give each replica its own seed, tf.random.set_seed(X) is called inside the tf.function with a tensor argument; the global seed is a Python value read at trace time."
# runtime = "raises"
# ///
import tensorflow as tf


@tf.function
def f(X):
    tf.random.set_seed(X)  # <-
    tf.print(tf.random.normal((2, 3)))


f(tf.constant(1))
