# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/93378"
# title = "get_config method"
# sampling = "by-pattern"
# symptom = "none; the reader asks why get_config() returns the constructor arguments without an override"
# flavour = "keras3"
# kind = "custom layer with plain constructor arguments and no get_config() on Keras 3"
# mistake = "None on Keras 3: a registered layer whose constructor takes only plain values gets get_config() automatically, so it saves and loads without an override (checked on Keras 3.15)."
# clean = true
# ///
import keras


@keras.saving.register_keras_serializable()
class PositionalEmbedding(keras.layers.Layer):
    def __init__(self, vocab_size, d_model, **kwargs):
        super().__init__(**kwargs)
        self.vocab_size = vocab_size
        self.d_model = d_model
        self.embedding = keras.layers.Embedding(vocab_size, d_model)

    def build(self, input_shape):
        self.embedding.build(input_shape)

    def call(self, x):
        return self.embedding(x)


tokens = keras.Input((16,), dtype="int32")
model = keras.Model(tokens, PositionalEmbedding(1000, 32)(tokens))
model.save("pe.keras")
restored = keras.models.load_model("pe.keras")
