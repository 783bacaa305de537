# /// case
# source = "https://github.com/keras-team/keras/issues/2584"
# title = "Simple custom Layer object has no 'built' attribute"
# sampling = "by-pattern"
# symptom = "AttributeError: 'LastStep' object has no attribute 'built'"
# flavour = "tf.keras"
# kind = "attributes set before super().__init__() / super().__init__ missing"
# mistake = "The layer calls super(Layer, self).__init__(), which skips Layer.__init__ itself; it must be super(LastStep, self) or super()."
# runtime = "raises"
# expected = ["TFL308"]
# ///
from keras.layers import Layer


class LastStep(Layer):
    def __init__(self, **kwargs):
        super(Layer, self).__init__(**kwargs)  # <-

    def call(self, x, mask=None):
        return x[:, -1, :]
