# /// case
# source = "https://github.com/philipperemy/keras-tcn/issues/284"
# title = "ValueError: Argument(s) not recognized: {'lr': 0.002}"
# sampling = "by-pattern"
# symptom = "ValueError: Argument(s) not recognized: {'lr': 0.002}"
# flavour = "keras3"
# kind = "optimizer lr= argument (renamed learning_rate)"
# mistake = "The library builds its optimizer with Adam(lr=lr, clipnorm=1.); Keras 3 only accepts learning_rate."
# runtime = "raises"
# expected = ["TFL602"]
# ///
from keras import optimizers


def get_opt(opt="adam", lr=0.002):
    if opt == "adam":
        return optimizers.Adam(lr=lr, clipnorm=1.0)  # <-
    return optimizers.RMSprop(lr=lr, clipnorm=1.0)  # <-
