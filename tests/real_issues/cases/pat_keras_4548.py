# /// case
# source = "https://github.com/keras-team/keras/issues/4548"
# title = "Write my own keras layer"
# sampling = "by-pattern"
# symptom = "TypeError: build() takes exactly 2 arguments (1 given)"
# flavour = "tf.keras"
# kind = "Keras 1 custom-layer API (manual trainable_weights, get_output_shape_for, build() without input_shape)"
# mistake = "The layer uses the Keras 1 layer protocol: it creates its kernel through an initializer object, assigns self.trainable_weights by hand and calls super().build() without the input shape."
# runtime = "raises"
# ///
from keras import backend as K
from keras import initializers
from keras.layers import Layer


class MyLayer(Layer):
    def __init__(self, output_dim, context_size, init="uniform", **kwargs):
        self.output_dim = output_dim
        self.context_size = context_size
        self.init = initializers.get(init)
        super().__init__(**kwargs)

    def build(self, input_shape):
        input_dim = input_shape[1]
        self.W_vec = K.variable(self.init((self.context_size, input_dim, self.output_dim)))  # <-
        self.trainable_weights = [self.W_vec]  # <-
        super().build()  # <-

    def call(self, x, mask=None):
        return K.dot(x, self.W_vec)

    def get_output_shape_for(self, input_shape):
        return (input_shape[0], self.context_size, self.output_dim)
