# /// case
# source = "https://newbe.dev/how-to-use-keras-multi-layer-perceptron-for-multi-class-classification"
# title = "How to use Keras' multi layer perceptron for multi-class classification"
# sampling = "by-symptom: model.compile categorical_crossentropy accuracy very low my labels are integers keras"
# symptom = "the multi-class MLP does not learn / fails on the label shape"
# flavour = "tf.keras"
# kind = "integer labels with categorical_crossentropy"
# mistake = "Integer class labels are passed to a model compiled with categorical_crossentropy, which expects one-hot vectors (to_categorical or sparse_categorical_crossentropy is needed)."
# runtime = "raises"
# expected = ["TFL801"]
# ///
import numpy as np
from keras.layers import Dense, Dropout
from keras.models import Sequential

X_train = np.random.rand(1000, 20)
y_train = np.random.randint(0, 10, size=(1000,))
model = Sequential()
model.add(Dense(64, activation="relu", input_dim=20))
model.add(Dropout(0.5))
model.add(Dense(10, activation="softmax"))
model.compile(loss="categorical_crossentropy", optimizer="sgd", metrics=["accuracy"])  # <-
model.fit(X_train, y_train, epochs=20, batch_size=128)  # <-
