# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/29504"
# title = "tf.function fails to parse for-loop in some circumstances"
# sampling = "by-pattern"
# symptom = "ValueError: Trying to capture a tensor from an inner function."
# flavour = "tf.keras"
# kind = "Python list appended inside a loop over a tensor in tf.function (use TensorArray)"
# mistake = "The function appends loop values to a Python list inside `for i in tf.range(n)`, which AutoGraph turns into a graph loop; a TensorArray is needed."
# runtime = "raises"
# ///
import tensorflow as tf


@tf.function
def tf_function_with_loop(num_iter):
    digit_list = []
    for i in tf.range(num_iter):
        digit_list.append(i)  # <-
    return tf.add_n(digit_list)


tf_function_with_loop(5)
