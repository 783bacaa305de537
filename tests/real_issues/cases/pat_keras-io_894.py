# /// case
# source = "https://github.com/keras-team/keras-io/pull/894"
# title = "added getconfig in neural machine translation"
# sampling = "by-pattern"
# symptom = "NotImplementedError: Layer PositionalEmbedding has arguments ['self', 'sequence_length', 'vocab_size', 'embed_dim'] in `__init__` and therefore must override `get_config()`."
# flavour = "tf.keras"
# kind = "custom layer with constructor arguments but no get_config()"
# mistake = "The translation example's PositionalEmbedding layer takes constructor arguments and defines no get_config(), so model.save() fails on TF 2.x Keras."
# runtime = "raises"
# note = "tf.keras 2 raised; Keras 3.15 records plain constructor arguments (ints, dicts of ints) automatically, so get_config() is no longer required for these (checked)."
# ///
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


class PositionalEmbedding(layers.Layer):  # <-
    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_embeddings = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.position_embeddings = layers.Embedding(input_dim=sequence_length, output_dim=embed_dim)
        self.sequence_length = sequence_length

    def call(self, inputs):
        positions = tf.range(start=0, limit=tf.shape(inputs)[-1], delta=1)
        return self.token_embeddings(inputs) + self.position_embeddings(positions)


tokens = keras.Input(shape=(None,), dtype="int64")
transformer = keras.Model(tokens, PositionalEmbedding(20, 15000, 256)(tokens))
transformer.save("translator.h5")
