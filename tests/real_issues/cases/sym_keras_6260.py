# /// case
# source = "https://github.com/keras-team/keras/issues/6260"
# title = "Keras fails to run on this simplest 3-column dataset!!"
# sampling = "by-symptom: keras regression model accuracy is always 0"
# symptom = "It always returns zero accuracy and zero prediction."
# flavour = "tf.keras"
# kind = "accuracy metric on a regression model"
# mistake = "A regression of z = x + y is judged with metrics=['accuracy'] (exact match of floats) on unscaled inputs up to 1040."
# runtime = "silent"
# expected = ["TFL807"]
# ///
import numpy
from keras.layers import Dense
from keras.models import Sequential

dataset = numpy.loadtxt("plus.csv", delimiter=",")
X = dataset[:, 0:2]  # <-
Y = dataset[:, 2]
model = Sequential()
model.add(Dense(12, input_dim=2, activation="relu"))
model.add(Dense(1))
model.compile(loss="mean_squared_error", optimizer="adam", metrics=["accuracy"])  # <-
model.fit(X, Y, epochs=150, batch_size=10)
