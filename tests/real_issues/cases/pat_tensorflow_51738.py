# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/51738"
# title = "Importing layers from keras instead of tensorflow.keras causes erroneous model.summary() behavior"
# sampling = "by-pattern"
# symptom = "ValueError: This model has not yet been built."
# flavour = "tf.keras"
# kind = "standalone keras and tf.keras objects mixed in one model"
# mistake = "A tf.keras Sequential is filled with a layer imported from the standalone keras package."
# runtime = "raises"
# note = "A mistake while keras and tf.keras were different packages (TF <= 2.15, or tf_keras with TF_USE_LEGACY_KERAS=1); on TF 2.21 both names are Keras 3."
# ///
from keras import layers
from tensorflow import keras

model = keras.Sequential()
model.add(layers.Dense(1, input_shape=(10, 1)))  # <-
model.summary()
