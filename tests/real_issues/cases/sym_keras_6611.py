# /// case
# source = "https://github.com/keras-team/keras/issues/6611"
# title = "Keras predict 0 accuracy"
# sampling = "by-symptom: keras predict gives wrong results on new image but training accuracy high"
# symptom = "89% accuracy from model.evaluate but 8% when checking predict() output by hand"
# flavour = "tf.keras"
# kind = "sigmoid + binary_crossentropy for single-label multi-class"
# mistake = "A 17-tag POS tagger uses sigmoid outputs and binary_crossentropy, whose 'accuracy' is per-unit binary accuracy; the model is also re-compiled before predicting."
# runtime = "silent"
# expected = ["TFL809"]
# ///
import numpy as np
from keras.layers import LSTM, Conv1D, Dense, Dropout
from keras.models import Sequential


def run(X_train, Y_train, X_test, Y_test):
    model = Sequential()
    model.add(Conv1D(300, 3, activation="sigmoid", input_shape=(5, 300)))
    model.add(LSTM(52))
    model.add(Dropout(0.5))
    model.add(Dense(17, activation="sigmoid"))  # <-
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])  # <-
    model.fit(np.asarray(X_train), np.asarray(Y_train), batch_size=32, epochs=1, validation_data=(np.asarray(X_test), np.asarray(Y_test)))
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model.predict(np.asarray(X_test[:1]))
