# /// case
# source = "https://github.com/keras-team/keras/issues/19899"
# title = "The saved keras model cannot be loaded."
# sampling = "by-pattern"
# symptom = "TypeError: Could not locate class 'TokenAndPositionEmbedding'. Make sure custom classes are decorated with `@keras.saving.register_keras_serializable()`."
# flavour = "keras3"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "A transformer built from keras.io's TokenAndPositionEmbedding and TransformerBlock (not registered) is saved to .keras and loaded in another notebook without custom_objects."
# runtime = "raises"
# expected = ["TFL401"]
# ///
import keras
from keras import layers


class TokenAndPositionEmbedding(layers.Layer):  # <-
    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = layers.Embedding(vocab_size, embed_dim)
        self.pos_emb = layers.Embedding(maxlen, embed_dim)

    def call(self, x):
        positions = keras.ops.arange(0, keras.ops.shape(x)[-1])
        return self.token_emb(x) + self.pos_emb(positions)


inputs = layers.Input(shape=(80,))
x = TokenAndPositionEmbedding(80, 20000, 256)(inputs)
model = keras.Model(inputs, layers.Dense(2, activation="softmax")(layers.GlobalAveragePooling1D()(x)))
model.save("br_model.keras")

br_model = keras.models.load_model("br_model.keras")  # <-
