# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/27660"
# title = "gradient not computed unless variable is assigned."
# sampling = "by-pattern"
# symptom = "the gradient is None"
# flavour = "tf.keras"
# kind = "loss computed outside the GradientTape block"
# mistake = "f(x) is evaluated as the argument of t.gradient() after the with-block has ended, so the tape never recorded it."
# runtime = "silent"
# expected = ["TFL505"]
# ///
import tensorflow as tf


def f(x):
    return x**2


def grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
    return t.gradient(f(x), x)  # <-


print(grad(tf.convert_to_tensor(9.0)))
