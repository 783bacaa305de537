# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/33180"
# title = "_list_all_concrete_functions_for_serialization doubles the trace count when called?"
# sampling = "by-symptom: 5 out of the last 5 calls triggered tf.function retracing"
# symptom = "none from this code; the thread is about a trace counter"
# flavour = "keras3"
# kind = "tf.print inside tf.function"
# mistake = "None: tf.print runs on every call of the graph, unlike print()."
# clean = true
# ///
import numpy as np
import tensorflow as tf


@tf.function
def f(a):
    tf.print(tf.shape(a))
    return a


for _ in range(3):
    f(tf.convert_to_tensor(np.random.randn(4, 3).astype(np.float32)))
