# /// case
# source = "https://github.com/keras-team/keras/issues/19314"
# title = "Backward compatibility issues: arbitrary inputs and overreliance on custom layers"
# sampling = "by-symptom: Only input tensors may be passed as positional arguments keras 3"
# symptom = "ValueError: A KerasTensor cannot be used as input to a TensorFlow function"
# flavour = "keras3"
# kind = "raw TensorFlow op applied to a symbolic keras.Input"
# mistake = "Code that worked in Keras 2 calls tf.shape on a keras.Input and slices it while building a functional model; Keras 3 symbolic tensors cannot go through TensorFlow ops."
# runtime = "raises"
# expected = ["TFL605"]
# ///
import numpy as np
import tensorflow as tf
from tensorflow import keras


def TestModel():
    x = keras.Input(batch_shape=(1, None))
    b, l = tf.shape(x)  # <-
    y = x[:, l // 2]
    return keras.Model(inputs=x, outputs=y)


model = TestModel()
print(model(np.random.normal(size=(1, 10))))
