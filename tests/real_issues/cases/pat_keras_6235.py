# /// case
# source = "https://github.com/keras-team/keras/issues/6235"
# title = "[/keras/tensorflow] Writing your own layer"
# sampling = "by-pattern"
# symptom = "NameError: global name 'Mylayer' is not defined"
# flavour = "tf.keras"
# kind = "layer class called with the input tensor instead of instantiated, then called"
# mistake = "The custom layer is used as Mylayer(tensor): the name is misspelt and the tensor is passed to the constructor (as output_dim) instead of MyLayer(units)(tensor)."
# runtime = "raises"
# ///
from keras import backend as K
from keras.layers import Dropout, Input, Layer


class MyLayer(Layer):
    def __init__(self, output_dim, **kwargs):
        self.output_dim = output_dim
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[1], self.output_dim), initializer="uniform", trainable=True)
        super().build(input_shape)

    def call(self, x):
        return K.dot(x, self.kernel)


def create_network(shape):
    source = Input(shape)
    dropout2_source = Dropout(0.5)(source)
    sourcedistribution = Mylayer(dropout2_source)  # <-
    return sourcedistribution
