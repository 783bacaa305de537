"""tf.config.run_functions_eagerly() does the same without a deprecation warning."""

import tensorflow as tf


@tf.function
def double(x):
    return x * 2, tf.executing_eagerly()


DEBUG = True
if DEBUG:
    tf.config.run_functions_eagerly(True)
_, eager = double(tf.constant(1.0))
print("tf.function ran eagerly:", bool(eager))
tf.config.run_functions_eagerly(False)
