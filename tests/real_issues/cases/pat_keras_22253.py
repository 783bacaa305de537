# /// case
# source = "https://github.com/keras-team/keras/issues/22253"
# title = "Layer.add_weight() misinterprets positional first argument as shape, raising \"got multiple values for argument shape\"."
# sampling = "by-pattern"
# symptom = "TypeError: Layer.add_weight() got multiple values for argument 'shape'"
# flavour = "keras3"
# kind = "positional argument bound to another parameter in Keras 3 (compile metrics, add_weight name)"
# mistake = "A custom layer passes the weight's name as the first positional argument of add_weight(), as Keras 2 allowed; Keras 3 takes name only as a keyword."
# runtime = "raises"
# expected = ["TFL611"]
# note = "Keras 3.15 now raises ValueError \"`name` must be passed as a keyword argument\" for this call (checked)."
# ///
import keras
from keras import ops


class MatrixLayer(keras.layers.Layer):
    def build(self, input_shape):
        num_fs = int(input_shape[-1])
        self.matrix = self.add_weight("matrix", shape=(num_fs, 4), initializer="glorot_uniform", trainable=True)  # <-

    def call(self, inputs):
        return ops.matmul(inputs, self.matrix)
