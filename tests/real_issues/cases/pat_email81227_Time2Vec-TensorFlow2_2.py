# /// case
# source = "https://github.com/email81227/Time2Vec-TensorFlow2/issues/2"
# title = "Layer Time2Vec has arguments ['self', 'kernel_size', 'periodic_activation'] in `__init__` and therefore must override `get_config()`."
# sampling = "by-pattern"
# symptom = "NotImplementedError: Layer Time2Vec has arguments ['self', 'kernel_size', 'periodic_activation'] in `__init__` and therefore must override `get_config()`."
# flavour = "tf.keras"
# kind = "custom layer with constructor arguments but no get_config()"
# mistake = "The Time2Vec layer takes kernel_size and an activation function but has no get_config(), so model.get_config() and saving fail."
# runtime = "raises"
# expected = ["TFL402"]
# ///
import tensorflow as tf


class Time2Vec(tf.keras.layers.Layer):  # <-
    def __init__(self, kernel_size, periodic_activation=tf.sin, **kwargs):
        super().__init__(**kwargs)
        self.k = kernel_size
        self.p_activation = periodic_activation

    def build(self, input_shape):
        self.wb = self.add_weight(shape=(input_shape[-1], 1), initializer="uniform")
        self.wa = self.add_weight(shape=(input_shape[-1], self.k), initializer="uniform")

    def call(self, x):
        return tf.concat([tf.matmul(x, self.wb), self.p_activation(tf.matmul(x, self.wa))], -1)


def time2vec_lstm(seq_len, k):
    inp = tf.keras.Input((seq_len, 1))
    h = tf.keras.layers.LSTM(32)(Time2Vec(k)(inp))
    return tf.keras.Model(inp, tf.keras.layers.Dense(1)(h))


model = time2vec_lstm(30, 16)
config = model.get_config()
