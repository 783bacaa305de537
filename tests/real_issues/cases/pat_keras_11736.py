# /// case
# source = "https://github.com/keras-team/keras/issues/11736"
# title = "When wrapping an existing Layer in a custom Layer, weights are not updated."
# sampling = "by-pattern"
# symptom = "the Dense layer's weights never change during training"
# flavour = "tf.keras"
# kind = "layer constructed inside call()"
# mistake = "The custom layer builds a new Dense inside call(), so its weights are not tracked by the outer layer and a fresh layer is made each call."
# runtime = "silent"
# expected = ["TFL303"]
# ///
from keras.layers import Dense, Layer


class CustomLayer(Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def call(self, inputs):
        output = Dense(self.units)(inputs)  # <-
        return output
