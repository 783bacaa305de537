# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/30897"
# title = "Inconsistency between using keras and tf.keras"
# sampling = "by-pattern"
# symptom = "the same model trains differently depending on where the layers are imported from"
# flavour = "tf.keras"
# kind = "imports from private tensorflow.python.keras modules"
# mistake = "The tf.keras version imports its layers from the private tensorflow.python.keras package while the rest comes from tensorflow.keras, mixing two Keras implementations."
# runtime = "silent"
# expected = ["TFL613"]
# ///
from tensorflow.keras.models import Model
from tensorflow.python.keras.layers import BatchNormalization, Dense, GaussianNoise, Input  # <-

inp = Input(shape=(30,))
h = GaussianNoise(0.1)(inp)
h = BatchNormalization()(Dense(64, activation="relu")(h))
model = Model(inp, Dense(1, activation="sigmoid")(h))
model.compile(optimizer="adam", loss="binary_crossentropy")
