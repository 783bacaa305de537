# /// case
# source = "https://github.com/keras-team/tf-keras/issues/440"
# title = "ValueError: Input 0 of layer lstm_112 is incompatible with the layer: expected ndim=3, found ndim=4. Full shape received: (1, 72, 110907, 200)"
# sampling = "by-symptom: Input 0 of layer lstm is incompatible with the layer: expected ndim=3, found ndim=2"
# symptom = "ValueError: Input 0 of layer lstm_112 is incompatible with the layer: expected ndim=3, found ndim=4. Full shape received: (1, 72, 110907, 200)"
# flavour = "tf.keras"
# kind = "Embedding fed one-hot vectors instead of integer ids"
# mistake = "The text input is declared as one-hot (max_length, vocab_size) and then embedded, so the Embedding adds a fourth axis and the LSTM fails; an Embedding takes (max_length,) integer ids."
# runtime = "raises"
# expected = ["TFL818"]
# ///
from tensorflow.keras.layers import LSTM, Concatenate, Dense, Dropout, Embedding, Flatten, Input
from tensorflow.keras.models import Model


def define_model(vocab_size, max_length):
    input_texts = Input(shape=(max_length, vocab_size), batch_size=1)  # <-
    embed = Embedding(vocab_size, 200, mask_zero=True)(input_texts)
    lstm1 = LSTM(256, return_sequences=True)(Dropout(0.5)(embed))
    dense1 = Dense(10, activation="relu")(Flatten()(lstm1))
    input_parties = Input(shape=(1,))
    outputs = Dense(vocab_size, activation="softmax")(Concatenate()([dense1, input_parties]))
    return Model(inputs=[input_texts, input_parties], outputs=outputs)
