"""Keras 2 names that Keras 3 does not have."""

import numpy as np
import tensorflow as tf

images = np.full((2, 8, 8, 3), 255.0, dtype="float32")


def augmenter():
    from keras.preprocessing.image import ImageDataGenerator  # [TFL609]

    return ImageDataGenerator(rescale=1.0 / 255, horizontal_flip=True)


def rescaler():
    return tf.keras.layers.experimental.preprocessing.Rescaling(1.0 / 255)  # [TFL609]


def session():
    return tf.keras.backend.get_session()  # [TFL609]


for build in (augmenter, rescaler, session):
    try:
        build()
        print(build.__name__, "works")
    except (AttributeError, ImportError) as error:
        print(build.__name__, "fails:", type(error).__name__)
