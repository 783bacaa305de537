# /// case
# source = "https://github.com/xiph/rnnoise/issues/117"
# title = "my_crossentropy issue"
# sampling = "by-symptom: binary crossentropy loss negative keras training"
# symptom = "the weighted cross-entropy behaves differently from the intended curve (plot in the thread)"
# flavour = "tf.keras"
# kind = "y_true/y_pred swapped in a loss call"
# mistake = "The custom loss calls K.binary_crossentropy(y_pred, y_true), but the backend function takes the target first and the prediction second."
# runtime = "silent"
# expected = ["TFL810"]
# ///
from keras import backend as K


def my_crossentropy(y_true, y_pred):
    weight = 2 * K.abs(y_true - 0.5)
    return K.mean(weight * K.binary_crossentropy(y_pred, y_true), axis=-1)  # <-
