# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/24623"
# title = "tf.keras.Model.load_weights failed"
# sampling = "by-symptom: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its variables yet"
# symptom = "load_weights() on a second instance of the subclassed model fails"
# flavour = "tf.keras"
# kind = "load_weights into a subclassed model that has not been built"
# mistake = "The second instance of the subclassed model is compiled but never called, so it has no variables when load_weights() runs; compile() does not build it."
# runtime = "raises"
# expected = ["TFL410"]
# ///
import numpy as np
import tensorflow as tf


class DemoModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = tf.keras.layers.Dense(128, activation="tanh")

    def call(self, inputs):
        return self.encoder(inputs)


data = np.random.rand(256, 128).astype("float32")

first = DemoModel()
first.compile(optimizer="adam", loss="mse")
first.fit(data, data, epochs=1)
first.save_weights("demo.h5")

second = DemoModel()
second.compile(optimizer="adam", loss="mse")
second.load_weights("demo.h5")  # <-
