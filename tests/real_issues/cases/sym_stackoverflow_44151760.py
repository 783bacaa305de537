# /// case
# source = "https://stackoverflow.com/questions/44151760/received-a-label-value-of-1-which-is-outside-the-valid-range-of-0-1-python"
# title = "Received a label value of 1 which is outside the valid range of [0, 1) - Python, Keras"
# sampling = "by-symptom: Received a label value of 1 which is outside the valid range of [0, 1) binary classification keras"
# symptom = "Received a label value of 1 which is outside the valid range of [0, 1)"
# flavour = "tf.keras"
# kind = "sparse_categorical_crossentropy on a one-unit output"
# mistake = "A binary CNN classifier ends in Dense(1, softmax) and is trained with sparse_categorical_crossentropy, which needs one output unit per class."
# runtime = "raises"
# expected = ["TFL802", "TFL806"]
# note = "The stored copy cuts the loss argument of compile(); the error message and the accepted answer identify it as sparse_categorical_crossentropy."
# ///
from keras.layers import Convolution2D, Dense, MaxPooling2D
from keras.models import Sequential


def cnn_keras(training_data, training_labels, test_data, test_labels):
    model = Sequential()
    model.add(Convolution2D(64, 1, 1, init="glorot_uniform", border_mode="valid", input_shape=(16, 1, 1), activation="relu"))
    model.add(MaxPooling2D(pool_size=(1, 1)))
    model.add(Dense(128, activation="relu"))
    model.add(Dense(64, activation="relu"))
    model.add(Dense(1, activation="softmax"))  # <-
    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam", metrics=["accuracy"])  # <-
    model.fit(training_data, training_labels, validation_data=(test_data, test_labels), nb_epoch=30, batch_size=8, verbose=2)
    return model.evaluate(test_data, test_labels, verbose=1)
