# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/51738"
# title = "Importing layers from keras instead of tensorflow.keras causes erroneous model.summary() behavior"
# sampling = "by-pattern"
# symptom = "ValueError: This model has not yet been built."
# flavour = "tf.keras"
# kind = "standalone keras and tf.keras objects mixed in one model"
# mistake = "A tf.keras Sequential is filled with a layer imported from the standalone keras package."
# runtime = "raises"
# expected = ["TFL604"]
# ///
from keras import layers
from tensorflow import keras

model = keras.Sequential()
model.add(layers.Dense(1, input_shape=(10, 1)))  # <-
model.summary()
