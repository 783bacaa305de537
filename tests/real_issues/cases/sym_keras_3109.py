# /// case
# source = "https://github.com/keras-team/keras/issues/3109"
# title = "Error when checking model target: expected activation_2 to have shape (None, 10) but got array with shape (3, 1)"
# sampling = "by-symptom: Error when checking target: expected dense_2 to have shape (1,) but got array with shape (10,)"
# symptom = "Error when checking model target: expected activation_2 to have shape (None, 10) but got array with shape (3, 1)"
# flavour = "tf.keras"
# kind = "integer labels with categorical_crossentropy"
# mistake = "Integer class labels (2, 3, 7) go to a 10-way softmax trained with categorical_crossentropy; they must be one-hot encoded or the loss made sparse."
# runtime = "raises"
# expected = ["TFL801"]
# ///
import numpy as np
from keras.layers import Activation, Dense
from keras.models import Sequential

X_train = np.array([[1, 2], [6, 5], [8, 2]])
y_train = np.array([2, 3, 7])  # <-
model = Sequential()
model.add(Dense(64, input_dim=X_train.shape[1]))
model.add(Dense(10))
model.add(Activation("softmax"))
model.compile(loss="categorical_crossentropy", optimizer="sgd")  # <-
model.fit(X_train, y_train, epochs=5)
