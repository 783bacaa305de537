# /// case
# source = "https://github.com/keras-team/keras/issues/18676"
# title = "Only input tensors may be passed as positional arguments"
# sampling = "by-symptom: Only input tensors may be passed as positional arguments keras 3"
# symptom = "ValueError: Only input tensors may be passed as positional arguments. The following argument value should be passed as a keyword argument: 56 (of type <class 'int'>)"
# flavour = "keras3"
# kind = "Keras 3: non-tensor positional arguments to a layer call"
# mistake = "While porting a tf.keras model, a custom layer is called with the spatial sizes H and W as positional Python ints; Keras 3 only accepts tensors positionally."
# runtime = "raises"
# ///
import keras
from keras import ops


class FocalModulation(keras.layers.Layer):
    def call(self, x, height, width):
        return ops.reshape(x, (-1, height, width, ops.shape(x)[-1]))


def block(tensor1, tensor2):
    shape = ops.shape(tensor1)
    H, W = shape[1], shape[2]
    return FocalModulation()(tensor2, H, W)  # <-
