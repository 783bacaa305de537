# /// case
# source = "https://github.com/jskDr/keraspp/issues/3"
# title = "ex4_2_cnn_cifar10_cl 실행하니 you forgot to call super(YourClass, self).__init__() 에러가 납니다."
# sampling = "by-pattern"
# symptom = "RuntimeError: It looks like you are subclassing `Model` and you forgot to call `super(YourClass, self).__init__()`."
# flavour = "tf.keras"
# kind = "attributes set before super().__init__() / super().__init__ missing"
# mistake = "The CNN class subclasses Model but builds sub-models and stores them as attributes in its constructor before (and instead of) calling super().__init__()."
# runtime = "raises"
# expected = ["TFL305"]
# ///
from keras.layers import Conv2D, Dense, Flatten, Input
from keras.models import Model


class CNN(Model):
    def __init__(self, nb_classes, in_shape=None):  # <-
        self.nb_classes = nb_classes
        self.in_shape = in_shape
        self.build_model()

    def build_model(self):
        x = Input(self.in_shape)
        h = Flatten()(Conv2D(32, (3, 3), activation="relu")(x))
        z_cl = Dense(self.nb_classes, activation="softmax")(h)
        self.cl_part = Model(x, z_cl)  # <-
