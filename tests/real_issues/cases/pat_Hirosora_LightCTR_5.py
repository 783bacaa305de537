# /// case
# source = "https://github.com/Hirosora/LightCTR/issues/5"
# title = "关于tf.function-decorated function tried to create variables on non-first call报错"
# sampling = "by-pattern"
# symptom = "ValueError: tf.function-decorated function tried to create variables on non-first call."
# flavour = "tf.keras"
# kind = "run_functions_eagerly used to hide a graph error"
# mistake = "The suggested fix switches every tf.function to eager with the deprecated tf.config.experimental_run_functions_eagerly(True) instead of creating the variables outside the step."
# runtime = "silent"
# expected = ["TFL107", "TFL108"]
# ///
import tensorflow as tf

tf.config.experimental_run_functions_eagerly(True)  # <-


def build_ctr_model(feature_dim):
    inp = tf.keras.Input((feature_dim,))
    return tf.keras.Model(inp, tf.keras.layers.Dense(1, activation="sigmoid")(inp))
