# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/52066"
# title = "SyntaxError: positional argument follows keyword argument"
# sampling = "by-symptom: Only input tensors may be passed as positional arguments keras 3"
# symptom = "SyntaxError: positional argument follows keyword argument"
# flavour = "tf.keras"
# kind = "preprocessing applied to the wrong object"
# mistake = "The transfer-learning function writes Input(shape=160,160,3) and then preprocess_input('imagenet'), preprocessing a string instead of the augmented tensor x."
# runtime = "raises"
# ///
import tensorflow as tf
from tensorflow import keras

preprocess_input = tf.keras.applications.mobilenet_v2.preprocess_input


def alpaca_model(data_augmentation, image_shape=(160, 160)):
    base_model = tf.keras.applications.MobileNetV2(input_shape=image_shape + (3,), include_top=False, weights="imagenet")
    base_model.trainable = False
    inputs = tf.keras.Input(shape=image_shape + (3,))
    x = data_augmentation(inputs)
    x = preprocess_input("imagenet")  # <-
    x = base_model(x, training=False)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(1)(keras.layers.Dropout(0.2)(x))
    return tf.keras.Model(inputs, outputs)
