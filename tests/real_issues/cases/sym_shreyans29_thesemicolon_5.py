# /// case
# source = "https://github.com/shreyans29/thesemicolon/issues/5"
# title = "Input 0 is incompatible with layer lstm_1: expected ndim=3, found ndim=2"
# sampling = "by-symptom: Input 0 of layer lstm is incompatible with the layer: expected ndim=3, found ndim=2"
# symptom = "ValueError: Input 0 is incompatible with layer lstm_1: expected ndim=3, found ndim=2"
# flavour = "tf.keras"
# kind = "recurrent layer fed data of the wrong rank"
# mistake = "The LSTM gets input_shape=x_train.shape[1:] from 2-D data, so it lacks the timestep axis; it is also written with Keras 1 arguments (output_dim, init, inner_init)."
# runtime = "raises"
# expected = ["TFL818"]
# ///
import numpy as np
from keras.layers import LSTM
from keras.models import Sequential

x_train = np.load("vectors.npy")  # shape (samples, 15)
model = Sequential()
model.add(LSTM(output_dim=300, input_shape=x_train.shape[1:], return_sequences=True, init="glorot_normal", inner_init="glorot_normal", activation="sigmoid"))  # <-
model.compile(loss="cosine_proximity", optimizer="adam")
