# /// case
# source = "https://github.com/gunchagarg/learning-rate-techniques-keras/issues/2"
# title = "AttributeError: can't set attribute"
# sampling = "by-symptom: AttributeError: 'Adam' object has no attribute 'lr'"
# symptom = "AttributeError: can't set attribute"
# flavour = "tf.keras"
# kind = "custom optimizer written against the Keras 2.2 optimizer API"
# mistake = "A differential-learning-rate Adam subclasses the Keras 2.2 optimizer and assigns self.lr = K.variable(...); newer optimizers expose lr/learning_rate as a property and use a different update API."
# runtime = "raises"
# ///
from keras import backend as K
from keras.optimizers import Optimizer


class Adam_dlr(Optimizer):
    def __init__(self, split_1, split_2, lr=(1e-7, 1e-4, 1e-2), beta_1=0.9, beta_2=0.999, **kwargs):
        super().__init__(name="Adam_dlr", **kwargs)
        with K.name_scope(self.__class__.__name__):
            self.iterations = K.variable(0, dtype="int64", name="iterations")  # <-
            self.lr = K.variable(lr, name="lr")  # <-
            self.beta_1 = K.variable(beta_1, name="beta_1")
        self.split_1 = split_1
        self.split_2 = split_2

    def get_updates(self, loss, params):  # <-
        return []
