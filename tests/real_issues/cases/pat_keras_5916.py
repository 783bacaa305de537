# /// case
# source = "https://github.com/keras-team/keras/issues/5916"
# title = "Loading model with custom loss function: ValueError: 'Unknown loss function'"
# sampling = "by-pattern"
# symptom = "ValueError: ('Unknown loss function', ':compute_loss')"
# flavour = "tf.keras"
# kind = "custom loss/metric not given to load_model (custom_objects or compile=False)"
# mistake = "The SSD model is compiled with a bound method of a loss object and later loaded with load_model() without custom_objects, so the saved compile config cannot be resolved."
# runtime = "raises"
# expected = ["TFL409"]
# ///
from keras.models import load_model
from keras.optimizers import Adam


class SSDLoss:
    def __init__(self, neg_pos_ratio=3, alpha=1.0):
        self.neg_pos_ratio = neg_pos_ratio
        self.alpha = alpha

    def compute_loss(self, y_true, y_pred):
        return (y_true - y_pred) ** 2


def train_and_save(model):
    model.compile(optimizer=Adam(1e-3), loss=SSDLoss(neg_pos_ratio=3, alpha=1.0).compute_loss)
    model.save("./model_0.h5")


model = load_model("./model_0.h5")  # <-
