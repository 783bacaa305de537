# /// case
# source = "https://github.com/keras-team/keras/issues/7303"
# title = "sparse_categorical_crossentropy loss function output shape didn't match"
# sampling = "by-symptom: Shape mismatch: The shape of labels should equal the shape of logits except for the last dimension sparse_categorical_crossentropy"
# symptom = "ValueError: Error when checking model target: expected dense_42 to have shape (None, 1) but got array with shape (1055, 3570)"
# flavour = "tf.keras"
# kind = "one-hot labels with sparse_categorical_crossentropy"
# mistake = "A 3570-class model ends in sigmoid units and compiles sparse_categorical_crossentropy while y_train is one-hot (1055, 3570); the loss needs integer ids (or categorical_crossentropy with softmax)."
# runtime = "raises"
# expected = ["TFL801"]
# ///
from keras.layers import Dense
from keras.models import Sequential


def train(x_train, y_train, x_valid, y_valid):
    model = Sequential()
    model.add(Dense(1024, input_dim=79, activation="relu"))
    model.add(Dense(2048, activation="relu"))
    model.add(Dense(3570, activation="sigmoid"))  # <-
    model.compile(loss="sparse_categorical_crossentropy", optimizer="rmsprop", metrics=["accuracy"])  # <-
    model.fit(x_train, y_train, epochs=10, batch_size=1, validation_data=(x_valid, y_valid))
