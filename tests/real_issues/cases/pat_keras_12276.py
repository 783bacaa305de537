# /// case
# source = "https://github.com/keras-team/keras/issues/12276"
# title = "keras.backend.set_value throws error: \"`Tensor` object has no attribute `assign`\""
# sampling = "by-pattern"
# symptom = "AttributeError: 'Tensor' object has no attribute 'assign'"
# flavour = "tf.keras"
# kind = "K.set_value / K.update on a symbolic Keras tensor"
# mistake = "K.set_value() is called on the symbolic Input of a functional model to overwrite its values; only variables can be assigned."
# runtime = "raises"
# ///
import keras.backend as K
import numpy as np
from keras.layers import Input
from keras.models import Model

features = Input((10,))
edited = K.set_value(features, np.array([0] * 10))  # <-
model = Model(features, edited)
