# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/44240"
# title = "Why is calling model.build() required to load weights for a subclassed tf.keras.Model"
# sampling = "by-symptom: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its variables yet"
# symptom = "ValueError: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its variables yet. Call the Model first, then load the weights."
# flavour = "tf.keras"
# kind = "load_weights into a subclassed model that has not been built"
# mistake = "A freshly created subclassed model has no variables yet, and load_weights() of an .h5 file is called before the model was called or built."
# runtime = "raises"
# expected = ["TFL410"]
# ///
import tensorflow as tf


class Classifier(tf.keras.Model):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = tf.keras.layers.Dense(64, activation="relu")
        self.logits = tf.keras.layers.Dense(num_classes)

    def call(self, x):
        return self.logits(self.features(x))


model = Classifier()
model.load_weights("checkpoints/classifier.h5")  # <-
