# /// case
# source = "https://github.com/wzhe06/SparrowRecSys/pull/34"
# title = "Update DeepFM_v2.py"
# sampling = "by-pattern"
# symptom = "RuntimeError: You must call `super().__init__()` in the layer constructor"
# flavour = "tf.keras"
# kind = "attributes set before super().__init__() / super().__init__ missing"
# mistake = "The FM layer stores its settings on self before calling super().__init__(), which Keras layers refuse."
# runtime = "raises"
# note = "tf.keras 2 raised; Keras 3.15 accepts a plain attribute set before super().__init__() (checked)."
# ///
import tensorflow as tf


class FMLayer(tf.keras.layers.Layer):
    def __init__(self, factor_dim, **kwargs):
        self.factor_dim = factor_dim  # <-
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.v = self.add_weight(shape=(input_shape[-1], self.factor_dim), initializer="glorot_uniform")

    def call(self, x):
        square_of_sum = tf.square(tf.matmul(x, self.v))
        sum_of_square = tf.matmul(tf.square(x), tf.square(self.v))
        return 0.5 * tf.reduce_sum(square_of_sum - sum_of_square, axis=1, keepdims=True)
