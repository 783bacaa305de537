# /// case
# source = "https://github.com/mercedes-benz/selfsupervised_flow/pull/21"
# title = "Replace `print` with `tf.print` to prevent side effects in `tf.function`"
# sampling = "by-pattern"
# symptom = "debug output appears only while the function is traced, not on every call"
# flavour = "tf.keras"
# kind = "print() inside tf.function"
# mistake = "Functions compiled through a project wrapper around tf.function use Python print() for debug output, which runs only during tracing."
# runtime = "silent"
# expected = ["TFL101"]
# ///
import functools

import tensorflow as tf


def relaxed_tf_function(*args, **kwargs):
    return functools.partial(tf.function, reduce_retracing=True)(*args, **kwargs)


@relaxed_tf_function
def tf_func(flow, mask):
    print("flow stats", tf.reduce_mean(flow), tf.reduce_sum(mask))  # <-
    return flow * tf.cast(mask, flow.dtype)
