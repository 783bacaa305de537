# /// case
# source = "https://github.com/keras-team/keras/issues/7749"
# title = "sparse_categorical_crossentropy requires a single output"
# sampling = "by-symptom: Shape mismatch: The shape of labels should equal the shape of logits except for the last dimension sparse_categorical_crossentropy"
# symptom = "ValueError: Error when checking target: expected activation_1 to have shape (None, None, 1) but got array with shape (1, 1, 2)"
# flavour = "tf.keras"
# kind = "one-hot labels with sparse_categorical_crossentropy"
# mistake = "Hoping it would handle rare classes better, the model switches to sparse_categorical_crossentropy but keeps feeding one-hot targets; the sparse loss takes integer class ids."
# runtime = "raises"
# expected = ["TFL801"]
# ///
import numpy as np
from keras.layers import Activation, Dense
from keras.models import Sequential

model = Sequential()
model.add(Dense(2, input_shape=(None, 2)))
model.add(Activation("softmax"))
model.compile(loss="sparse_categorical_crossentropy", optimizer="rmsprop", metrics=["accuracy"])  # <-
inp = np.array([[[2, 3]]])
out = np.array([[[1, 0]]])
model.fit(inp, out)  # <-
