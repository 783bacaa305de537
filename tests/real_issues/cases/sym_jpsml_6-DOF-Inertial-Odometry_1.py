# /// case
# source = "https://github.com/jpsml/6-DOF-Inertial-Odometry/issues/1"
# title = "ValueError: Unknown layer: CustomMultiLossLayer"
# sampling = "by-symptom: ValueError: Unknown layer when loading model with custom layer load_model"
# symptom = "ValueError: Unknown layer: CustomMultiLossLayer"
# flavour = "tf.keras"
# kind = "load_model without custom_objects for a custom layer"
# mistake = "The training script saves a model containing a custom loss-weighting layer, and the test script loads it with load_model() without custom_objects or registration."
# runtime = "raises"
# expected = ["TFL401"]
# ///
import argparse

from keras import backend as K
from keras.layers import Layer
from keras.models import load_model


class CustomMultiLossLayer(Layer):  # <-
    def __init__(self, nb_outputs=2, **kwargs):
        self.nb_outputs = nb_outputs
        super().__init__(**kwargs)

    def build(self, input_shape=None):
        self.log_vars = [
            self.add_weight(name=f"log_var{i}", shape=(1,), initializer="zeros") for i in range(self.nb_outputs)
        ]
        super().build(input_shape)

    def call(self, inputs):
        total = 0
        for y_true, y_pred, log_var in zip(inputs[: self.nb_outputs], inputs[self.nb_outputs :], self.log_vars):
            total += K.sum(K.exp(-log_var[0]) * K.square(y_true - y_pred) + log_var[0])
        self.add_loss(total)
        return K.concatenate(inputs, -1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    args = parser.parse_args()
    model = load_model(args.model)  # <-
    model.summary()
