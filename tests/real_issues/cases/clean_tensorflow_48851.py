# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/48851"
# title = "tf.function traces twice when creating Variables in the first call?"
# sampling = "by-pattern"
# symptom = "none; the function is traced twice on the first call, which the TF guide documents"
# flavour = "keras3"
# kind = "variable created once, guarded, inside a tf.function"
# mistake = "None: the variable is created only when it does not exist yet, which tf.function allows on the first call."
# clean = true
# ///
import tensorflow as tf


class Count:
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        tf.print("executing")
        return self.count.assign_add(1)


counter = Count()
counter()
counter()
