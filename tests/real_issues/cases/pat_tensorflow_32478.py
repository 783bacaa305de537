# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/32478"
# title = "optimizer.apply_gradients does not accept tape.gradient information"
# sampling = "by-pattern"
# symptom = "apply_gradients raises when given the gradient and the variable as two arguments"
# flavour = "tf1"
# kind = "apply_gradients given gradients and variables as separate arguments instead of pairs"
# mistake = "apply_gradients(dy_dx, x) passes the gradient and the variable as two positional arguments; it takes one list of (gradient, variable) pairs."
# runtime = "raises"
# ///
import tensorflow as tf

tf.enable_eager_execution()
optimizer = tf.train.GradientDescentOptimizer(0.001)
x = tf.Variable(2 * tf.ones((5, 1)))
with tf.GradientTape(persistent=True) as t:
    y = x**2
    dy_dx = t.gradient(y, x)
    optimizer.apply_gradients(dy_dx, x)  # <-
