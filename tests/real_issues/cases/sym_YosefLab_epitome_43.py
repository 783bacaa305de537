# /// case
# source = "https://github.com/YosefLab/epitome/issues/43"
# title = "Extra TF function retracing"
# sampling = "by-symptom: 5 out of the last 5 calls triggered tf.function retracing"
# symptom = "WARNING:tensorflow:9 out of the last 9 calls to <function VariationalPeakModel.run_predictions.<locals>.predict_step at 0x...> triggered tf.function retracing."
# flavour = "tf.keras"
# kind = "tf.function defined inside a function that is called repeatedly"
# mistake = "predict_step is decorated with @tf.function inside run_predictions, so every call of run_predictions makes a new function that traces again."
# runtime = "warns"
# expected = ["TFL106"]
# ///
import tensorflow as tf


class VariationalPeakModel:
    def __init__(self, model):
        self.model = model

    def run_predictions(self, dataset):
        @tf.function  # <-
        def predict_step(x):
            return tf.sigmoid(self.model(x, training=False))

        return [predict_step(x) for x in dataset]
