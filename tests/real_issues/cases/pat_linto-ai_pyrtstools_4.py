# /// case
# source = "https://github.com/linto-ai/pyrtstools/issues/4"
# title = "AttributeError: 'Sequential' object has no attribute '_make_predict_function'"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Sequential' object has no attribute '_make_predict_function'"
# flavour = "tf.keras"
# kind = "private Keras 2/TF1 model methods removed (_make_predict_function, _make_train_function)"
# mistake = "The keyword-spotting inferer calls the private model._make_predict_function(), which only existed in TF1-era Keras."
# runtime = "raises"
# expected = ["TFL607"]
# ///
from tensorflow.keras.models import load_model


class Inferer:
    def __init__(self, model_path):
        self._predict_fun = self._load_keras_model(model_path)

    def _load_keras_model(self, model_path):
        self.model = load_model(model_path)
        self.model._make_predict_function()  # <-
        return self.model.predict
