# /// case
# source = "https://github.com/keras-team/keras/issues/14875"
# title = "Bad marshal when loading lambda model saved with different Python minor version"
# sampling = "by-pattern"
# symptom = "ValueError: bad marshal data (unknown type code)"
# flavour = "tf.keras"
# kind = "Lambda layer wrapping a Python lambda in a saved model"
# mistake = "The model stores a Python lambda in a Lambda layer; it is saved as bytecode, which another Python version cannot read (Keras 3 refuses to load it at all without safe_mode=False)."
# runtime = "raises"
# expected = ["TFL408"]
# ///
import sys

from tensorflow.keras import Model
from tensorflow.keras.layers import Input, Lambda
from tensorflow.keras.models import load_model

if sys.version_info > (3, 8):
    inp = Input(shape=(28, 28, 1))
    x = Lambda(lambda t: t + 1)(inp)  # <-
    model = Model(inp, x)
    model.save("lambdamodel.hdf5")
else:
    model = load_model("lambdamodel.hdf5")
