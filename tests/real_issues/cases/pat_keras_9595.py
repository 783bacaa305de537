# /// case
# source = "https://github.com/keras-team/keras/issues/9595"
# title = "A model saved with Python3.5 cannot be loaded in Python3.6"
# sampling = "by-pattern"
# symptom = "SystemError: unknown opcode (XXX lineno: 7, opcode: 0)"
# flavour = "tf.keras"
# kind = "Lambda layer wrapping a Python lambda in a saved model"
# mistake = "A Lambda layer wraps a plain Python function that is serialised as bytecode into the .h5 file, so the model only loads under the Python version that saved it."
# runtime = "raises"
# expected = ["TFL408"]
# ///
from keras.layers import Input, Lambda
from keras.models import Model


def noop(x):
    return x


inp = Input(shape=(None, 1))
output = Lambda(noop)(inp)  # <-
model = Model(inputs=inp, outputs=output)
model.save("result.h5")
