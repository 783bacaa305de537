# /// case
# source = "https://github.com/christianversloot/machine-learning-articles/pull/7"
# title = "Changing import of Adam optimiser"
# sampling = "by-symptom: AttributeError: 'Adam' object has no attribute 'lr'"
# symptom = "AttributeError: 'Adam' object has no attribute 'get_updates'"
# flavour = "tf.keras"
# kind = "standalone keras and tf.keras objects mixed in one model"
# mistake = "The article builds the model with the standalone keras package but takes Adam from tensorflow.keras.optimizers, mixing two Keras implementations."
# runtime = "raises"
# note = "A mistake while keras and tf.keras were different packages (TF <= 2.15, or tf_keras with TF_USE_LEGACY_KERAS=1); on TF 2.21 both names are Keras 3."
# ///
from keras.layers import Dense
from keras.models import Sequential
from tensorflow.keras.optimizers import Adam

model = Sequential()
model.add(Dense(16, input_dim=4, activation="relu"))
model.add(Dense(3, activation="softmax"))
model.compile(loss="categorical_crossentropy", optimizer=Adam(), metrics=["accuracy"])  # <-
