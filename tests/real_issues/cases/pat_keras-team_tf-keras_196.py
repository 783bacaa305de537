# /// case
# source = "https://github.com/keras-team/tf-keras/issues/196"
# title = "ModuleNotFoundError: No module named 'keras.engine' with TF2.13.0-rc0"
# sampling = "by-pattern"
# symptom = "ModuleNotFoundError: No module named 'keras.engine'"
# flavour = "tf.keras"
# kind = "imports from private/removed Keras submodules"
# mistake = "Code imports the data_adapter helper from the internal keras.engine package, which moved to keras.src in Keras 2.13 and is gone from Keras 3."
# runtime = "raises"
# expected = ["TFL613"]
# ///
from keras.engine import data_adapter  # <-

print(data_adapter.__name__)
