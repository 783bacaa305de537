# /// case
# source = "https://github.com/keras-team/keras/issues/18606"
# title = "keras.layers.preprocessing exists in the code but not in the pip package"
# sampling = "by-pattern"
# symptom = "ImportError: cannot import name 'preprocessing' from 'keras.layers'"
# flavour = "tf.keras"
# kind = "imports from private/removed Keras submodules"
# mistake = "The code calls keras.layers.preprocessing.image_preprocessing.transform, an internal module that is not part of the public API (and gone in Keras 3)."
# runtime = "raises"
# expected = ["TFL613", "TFL609"]
# ///
import keras
from keras.layers import preprocessing  # <-


def rotate(images, transforms):
    return preprocessing.image_preprocessing.transform(images, transforms)  # <-


print(keras.__version__)
