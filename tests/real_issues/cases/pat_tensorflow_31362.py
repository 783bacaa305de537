# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/31362"
# title = "Non-tensorflow code gets executed only on the first run of tf.function"
# sampling = "by-pattern"
# symptom = "obj.value stays at 1 after five calls"
# flavour = "tf.keras"
# kind = "Python side effect inside tf.function (runs only while tracing)"
# mistake = "The tf.function increments a counter on a Python object; that statement runs only during tracing, not on every call."
# runtime = "silent"
# expected = ["TFL103"]
# ///
import tensorflow as tf


class MyObj:
    def __init__(self):
        self.value = 0


obj = MyObj()


@tf.function
def with_py_side_effect(tensorflow_stuff, o):
    o.value += 1  # <-
    return tensorflow_stuff


for i in range(5):
    with_py_side_effect(None, obj)
    print(i, obj.value)
