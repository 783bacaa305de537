# /// case
# source = "https://github.com/mkocabas/focal-loss-keras/issues/10"
# title = "Unknown loss function:focal_loss_fixed"
# sampling = "by-pattern"
# symptom = "ValueError: Unknown loss function:focal_loss_fixed"
# flavour = "tf.keras"
# kind = "custom loss/metric not given to load_model (custom_objects or compile=False)"
# mistake = "A U-Net compiled with the closure returned by focal_loss() is reloaded to continue training with load_model(MODEL_PATH), without custom_objects for 'focal_loss_fixed'."
# runtime = "raises"
# ///
import keras.backend as K
from keras.models import load_model

MODEL_PATH = "unet_focal.h5"


def focal_loss(gamma=2.0, alpha=0.25):
    def focal_loss_fixed(y_true, y_pred):
        p = K.clip(y_pred, K.epsilon(), 1 - K.epsilon())
        return -K.mean(alpha * K.pow(1.0 - p, gamma) * y_true * K.log(p))

    return focal_loss_fixed


def resume(x, y):
    model = load_model(MODEL_PATH)  # <-
    model.fit(x, y, epochs=5)
