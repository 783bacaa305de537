# /// case
# source = "https://github.com/GoogleCloudPlatform/asl-ml-immersion/pull/450"
# title = "Refactor: Remove unnecessary 'self' argument from super().__init__() call"
# sampling = "by-pattern"
# symptom = "TypeError: Layer.__init__() takes 1 positional argument but 2 were given"
# flavour = "keras3"
# kind = "super().__init__(self) passes self twice"
# mistake = "The text-generation model calls super().__init__(self), passing the instance as an extra positional argument."
# runtime = "raises"
# expected = ["TFL308"]
# ///
import tensorflow as tf


class MyModel(tf.keras.Model):
    def __init__(self, vocab_size, embedding_dim, rnn_units):
        super().__init__(self)  # <-
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.gru = tf.keras.layers.GRU(rnn_units, return_sequences=True, return_state=True)
        self.dense = tf.keras.layers.Dense(vocab_size)

    def call(self, inputs, states=None, training=False):
        x = self.embedding(inputs, training=training)
        x, states = self.gru(x, initial_state=states, training=training)
        return self.dense(x, training=training), states
