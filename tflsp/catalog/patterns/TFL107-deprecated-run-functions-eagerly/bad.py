"""The experimental_ spelling still works on TF 2.21, but it is deprecated and warns."""

import tensorflow as tf


@tf.function
def double(x):
    return x * 2, tf.executing_eagerly()


DEBUG = True
if DEBUG:
    tf.config.experimental_run_functions_eagerly(True)  # [TFL107]
_, eager = double(tf.constant(1.0))
print("tf.function ran eagerly:", bool(eager))
tf.config.experimental_run_functions_eagerly(False)  # [TFL107]
