# /// case
# source = "https://github.com/lingxiaoli94/CWB/issues/2"
# title = "Performance issue in blob/master/cwb/common/utils.py.py"
# sampling = "by-pattern"
# symptom = "a new graph is traced for every value of k (tf.function retracing warning)"
# flavour = "tf.keras"
# kind = "Python scalar passed to a tf.function in a loop (retrace per value)"
# mistake = "A loop passes the Python int k to a tf.function, so each distinct value traces a new graph."
# runtime = "warns"
# expected = ["TFL106"]
# ///
import tensorflow as tf


@tf.function
def compute_kth_marginal_moment(samples, k):
    return tf.reduce_mean(samples**k, axis=0)


def moments(samples, max_k):
    out = []
    for k in range(1, max_k + 1):
        out.append(compute_kth_marginal_moment(samples, k))  # <-
    return out
