# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/42167"
# title = "ValueError: No gradients provided for any variable"
# sampling = "by-symptom: ValueError: No gradients provided for any variable custom training loop"
# symptom = "ValueError: No gradients provided for any variable: ['dd:0']."
# flavour = "tf.keras"
# kind = "loss computed before minimize()/the tape, callable returns a constant"
# mistake = "The cost is computed eagerly once and minimize() gets a lambda that returns that fixed tensor, so nothing links it to the variable."
# runtime = "raises"
# ///
import tensorflow as tf

y_N = tf.Variable([1.0, 2.0, 3.0], name="dd")
cost = -tf.reduce_mean(tf.reduce_sum(tf.math.log(y_N), axis=0))  # <-
loss = lambda: cost  # <-
tf.keras.optimizers.Adam(0.5).minimize(loss, var_list=[y_N])
