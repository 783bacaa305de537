# /// case
# source = "https://github.com/aneesh-joshi/LSTM_POS_Tagger/issues/19"
# title = "ValueError: Layer model expects 1 input(s), but it received 2 input tensors."
# sampling = "by-symptom: Layer sequential expects 1 input(s), but it received 2 input tensors"
# symptom = "ValueError: Layer model expects 1 input(s), but it received 2 input tensors. Inputs received: [<tf.Tensor 'IteratorGetNext:0' shape=(None, None) dtype=int32>, <tf.Tensor 'IteratorGetNext:1' shape=(Non..."
# flavour = "tf.keras"
# kind = "validation_data given as a list instead of a tuple"
# mistake = "The tagger passes validation_data=[X_val, Y_val]; from TF 2.2 a list is taken as the inputs, so the labels become a second input."
# runtime = "raises"
# ///
from tensorflow.keras.layers import LSTM, Dense, Embedding, Input, TimeDistributed
from tensorflow.keras.models import Model

sequence_input = Input(shape=(100,), dtype="int32")
x = Embedding(20000, 100)(sequence_input)
preds = TimeDistributed(Dense(17, activation="softmax"))(LSTM(64, return_sequences=True)(x))
model = Model(sequence_input, preds)
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["acc"])


def train(X_train, Y_train, X_val, Y_val):
    model.fit(X_train, Y_train, validation_data=[X_val, Y_val], epochs=2, batch_size=256)  # <-
