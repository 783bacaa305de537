# /// case
# source = "https://github.com/google-research/seed_rl/issues/52"
# title = "Unable to update non-tensor variable in the tf.function"
# sampling = "by-pattern"
# symptom = "the Python counter stays at 0 and the NumPy random number is the same on every call"
# flavour = "tf.keras"
# kind = "Python side effect inside tf.function (runs only while tracing)"
# mistake = "The inference tf.function increments a Python global and draws with np.random.random(); both run once at trace time."
# runtime = "silent"
# expected = ["TFL103", "TFL105"]
# ///
import numpy as np
import tensorflow as tf

a = 0


@tf.function
def inference(x):
    global a
    a += 1  # <-
    i = np.random.random()  # <-
    tf.print("number_random", i)
    return x * i
