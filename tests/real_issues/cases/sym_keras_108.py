# /// case
# source = "https://github.com/keras-team/keras/issues/108"
# title = "Regression problems / continuous target"
# sampling = "by-symptom: keras regression model accuracy is always 0"
# symptom = "loss: 16771.4415 every epoch; the error does not drop"
# flavour = "tf.keras"
# kind = "bounded output activation (tanh/sigmoid) on an unscaled regression target"
# mistake = "The regression network ends in a tanh activation, so it can only output values in (-1, 1) while the targets are large numbers; the loss cannot go down."
# runtime = "silent"
# ///
from keras.layers import Activation, Dense
from keras.models import Sequential


def train_red(X_train_red, Y_train_red, red_rows, batch_size=128, nb_epoch=500):
    modelRed = Sequential()
    modelRed.add(Dense(16, batch_input_shape=(None, red_rows)))
    modelRed.add(Activation("tanh"))
    modelRed.add(Dense(16))
    modelRed.add(Activation("tanh"))
    modelRed.add(Dense(1))
    modelRed.add(Activation("tanh"))  # <-
    modelRed.compile(optimizer="rmsprop", loss="mse")
    modelRed.fit(X_train_red, Y_train_red, batch_size=batch_size, epochs=nb_epoch)
    return modelRed
