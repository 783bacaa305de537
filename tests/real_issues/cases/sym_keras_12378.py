# /// case
# source = "https://github.com/keras-team/keras/issues/12378"
# title = "Error when checking target: expected dense_143 to have shape (None, 3) but got array with shape (6210, 1)"
# sampling = "by-symptom: Error when checking target: expected dense_2 to have shape (1,) but got array with shape (10,)"
# symptom = "Error when checking target: expected dense_143 to have shape (None, 3) but got array with shape (6210, 1)"
# flavour = "tf.keras"
# kind = "integer labels with categorical_crossentropy"
# mistake = "The label column (one integer per row) is fed to a 3-way softmax trained with categorical_crossentropy, and Dense layers are applied before Flatten on the 3-D convolution output."
# runtime = "raises"
# expected = ["TFL801"]
# ///
import numpy
from keras.layers import Conv1D, Dense, Flatten, LeakyReLU, MaxPooling1D
from keras.models import Sequential

dataset = numpy.loadtxt("newda.csv", delimiter=",")
X = dataset[:, 0:177]
y = dataset[:, 178]  # <-


def build(n_timesteps):
    model_m = Sequential()
    model_m.add(Conv1D(filters=4, kernel_size=2, activation="relu", input_shape=(n_timesteps, 1)))
    model_m.add(LeakyReLU(0.1))
    model_m.add(MaxPooling1D(2, strides=2))
    model_m.add(Dense(50))
    model_m.add(Dense(20))
    model_m.add(Flatten())
    model_m.add(Dense(3, activation="softmax"))
    model_m.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])  # <-
    return model_m
