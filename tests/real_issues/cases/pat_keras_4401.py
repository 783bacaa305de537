# /// case
# source = "https://github.com/keras-team/keras/issues/4401"
# title = "Custom layer, which is very similar to a dense layer, AttributeError 'TensorVariable' object has no attribute 'get_value'"
# sampling = "by-pattern"
# symptom = "AttributeError 'TensorVariable' object has no attribute 'get_value'"
# flavour = "tf.keras"
# kind = "weights registered by hand (trainable_weights list) or wrapped in an op before registering"
# mistake = "The layer applies expand_dims to its new variables and stores the resulting tensors in self.trainable_weights, so the 'weights' are tensors, not variables; add_weight() in build() is the way."
# runtime = "raises"
# ///
import numpy as np
from keras import backend as K
from keras.layers import Layer


class Normalization2D(Layer):
    def __init__(self, means, stds, **kwargs):
        self.init_means = means
        self.init_stds = stds
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.means = K.expand_dims(K.variable(np.array(self.init_means)), 1)  # <-
        self.stds = K.expand_dims(K.variable(np.array(self.init_stds)), 1)  # <-
        self.trainable_weights = [self.means, self.stds]  # <-
        super().build(input_shape)

    def call(self, x):
        return (x - self.means) / self.stds
