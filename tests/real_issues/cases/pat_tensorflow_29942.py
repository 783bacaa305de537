# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/29942"
# title = "`tf.GradientTape.gradient` returns `None` when `sources` is a tensor (not a variable)"
# sampling = "by-pattern"
# symptom = "tape.gradient(z, x) prints None while tf.gradients(z, x) gives 1"
# flavour = "tf1"
# kind = "gradient with respect to a tensor the tape does not watch / that the target does not depend on"
# mistake = "x is a tensor computed before the tape starts and is not watched, so the tape cannot differentiate with respect to it."
# runtime = "silent"
# expected = ["TFL503"]
# ///
import tensorflow as tf

x0 = tf.get_variable("x0", shape=(), dtype=tf.float32)
x1 = tf.constant(3.0)
x = x0 + x1
y = tf.constant(4.0)
with tf.GradientTape() as tape:
    z = x + y
    tape_grad = tape.gradient(z, x)  # <-
