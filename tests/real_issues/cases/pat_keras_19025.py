# /// case
# source = "https://github.com/keras-team/keras/issues/19025"
# title = "Keyword learning_rate vs lr not returning same loss function in keras.optimizers.Adam"
# sampling = "by-pattern"
# symptom = "training with Adam(lr=1e-5) gives a very different loss from Adam(learning_rate=1e-5): lr was ignored"
# flavour = "tf.keras"
# kind = "optimizer lr= argument (renamed learning_rate)"
# mistake = "The LSTM forecaster sets the learning rate with lr=1e-5; the TF 2.11+ optimizers only warned and trained with the default rate, and Keras 3 rejects the argument."
# runtime = "silent"
# expected = ["TFL602"]
# ///
from tensorflow import keras
from tensorflow.keras.layers import LSTM, Dense
from tensorflow.keras.models import Sequential

n_steps, n_features = 10, 1
model = Sequential()
model.add(LSTM(50, activation="relu", input_shape=(n_steps, n_features)))
model.add(Dense(1))
optimizer = keras.optimizers.Adam(lr=1e-5)  # <-
model.compile(optimizer=optimizer, loss="mse")
