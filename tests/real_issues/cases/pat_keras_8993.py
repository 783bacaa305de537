# /// case
# source = "https://github.com/keras-team/keras/issues/8993"
# title = "A question in my custom loss"
# sampling = "by-pattern"
# symptom = "the custom loss is much higher than categorical_crossentropy and training does not reach the expected results after upgrading Keras"
# flavour = "tf.keras"
# kind = "y_true/y_pred swapped in a loss call"
# mistake = "A label-smoothing loss passes y_pred as the target of K.categorical_crossentropy, the argument order of Keras before 2.0.7; the backend now takes the target first."
# runtime = "silent"
# expected = ["TFL810"]
# ///
from keras import backend as K

NUM_CLASSES = 10


def custom_loss(y_true, y_pred, e=0.1):
    main = K.categorical_crossentropy(y_pred, y_true)  # <-
    smooth = K.categorical_crossentropy(y_pred, K.ones_like(y_pred) / NUM_CLASSES)  # <-
    return (1 - e) * main + e * smooth


def compile_model(model, opt):
    model.compile(optimizer=opt, loss=custom_loss, metrics=["acc"])
