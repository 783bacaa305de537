"""The Keras 3 names: preprocessing layers in keras.layers, no session to fetch."""

import numpy as np
import tensorflow as tf

images = np.full((2, 8, 8, 3), 255.0, dtype="float32")


def augmenter():
    return tf.keras.Sequential(
        [tf.keras.layers.Rescaling(1.0 / 255), tf.keras.layers.RandomFlip("horizontal")]
    )


def rescaler():
    return tf.keras.layers.Rescaling(1.0 / 255)


def session():
    # TF2 runs eagerly: configure devices with tf.config instead of a session.
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
    return tf.config.list_logical_devices()


for build in (augmenter, rescaler, session):
    try:
        build()
        print(build.__name__, "works")
    except (AttributeError, ImportError) as error:
        print(build.__name__, "fails:", type(error).__name__)
print("rescaled maximum is one:", bool(np.isclose(float(tf.reduce_max(rescaler()(images))), 1.0)))
