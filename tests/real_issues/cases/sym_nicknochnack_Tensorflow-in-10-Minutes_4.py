# /// case
# source = "https://github.com/nicknochnack/Tensorflow-in-10-Minutes/pull/4"
# title = "Update Tensorflow in 10.ipynb"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras format (recommended) or a `.h5` extension."
# flavour = "tf.keras"
# kind = "Keras 3: model.save() to a path without .keras/.h5"
# mistake = "The tutorial saves the churn model with model.save('tfmodel'), a SavedModel directory that TF 2.16+ (Keras 3) refuses."
# runtime = "raises"
# expected = ["TFL404"]
# ///
from tensorflow.keras.layers import Dense
from tensorflow.keras.models import Sequential, load_model

model = Sequential()
model.add(Dense(units=32, activation="relu", input_dim=46))
model.add(Dense(units=1, activation="sigmoid"))
model.compile(loss="binary_crossentropy", optimizer="sgd", metrics=["accuracy"])
model.save("tfmodel")  # <-
model = load_model("tfmodel")  # <-
