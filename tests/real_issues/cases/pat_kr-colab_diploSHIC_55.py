# /// case
# source = "https://github.com/kr-colab/diploSHIC/issues/55"
# title = "Incompatibility with Keras 3"
# sampling = "by-pattern"
# symptom = "ImportError: cannot import name 'ImageDataGenerator' from 'keras.preprocessing.image'"
# flavour = "keras3"
# kind = "Keras 3 removed ImageDataGenerator from keras.preprocessing.image"
# mistake = "The command-line tool imports ImageDataGenerator from keras.preprocessing.image, which Keras 3 no longer provides."
# runtime = "raises"
# expected = ["TFL609"]
# ///
from keras.preprocessing.image import ImageDataGenerator  # <-


def make_generator():
    return ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
