# /// case
# source = "https://github.com/keras-team/keras/issues/9377"
# title = "customized loss function cannot be save to a keras model"
# sampling = "by-pattern"
# symptom = "ValueError: Unknown loss function:mbe1_4"
# flavour = "tf.keras"
# kind = "custom loss/metric not given to load_model (custom_objects or compile=False)"
# mistake = "The stock model is trained with the custom loss mbe1_4 and reloaded from a versioned folder with load_model() and no custom_objects."
# runtime = "raises"
# ///
import os

import keras.backend as K
from keras.models import load_model

model_dir = "models"


def mbe1_4(y_true, y_pred):
    return K.mean(K.abs(y_true - y_pred) * 1.4)


def get_model(version):
    for f in os.listdir(f"{model_dir}/{version}"):
        if "keras" in f:
            return load_model(f"{model_dir}/{version}/{f}")  # <-
    return None
