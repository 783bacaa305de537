# /// case
# source = "https://github.com/ageron/handson-ml2/issues/131"
# title = "Ch 14 Tackling Fashion MNIST with CNN error"
# sampling = "by-symptom: Layer sequential expects 1 input(s), but it received 2 input tensors"
# symptom = "ValueError: Layer sequential expects 1 inputs, but it received 2 input tensors. Inputs received: [<tf.Tensor 'IteratorGetNext:0' shape=(None, 28, 28, 1) dtype=float32>, <tf.Tensor 'ExpandDims:0' shape=(None, 1) dtype=uint8>]"
# flavour = "tf.keras"
# kind = "validation_data given as a list instead of a tuple"
# mistake = "The notebook passes validation_data=[X_valid, y_valid]; TF 2.2 started reading lists as inputs, so tuples are needed."
# runtime = "raises"
# ///
from tensorflow import keras

model = keras.models.Sequential([
    keras.layers.Conv2D(64, 7, activation="relu", padding="same", input_shape=[28, 28, 1]),
    keras.layers.MaxPooling2D(2),
    keras.layers.Flatten(),
    keras.layers.Dense(10, activation="softmax"),
])
model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam", metrics=["accuracy"])


def train(X_train, y_train, X_valid, y_valid):
    return model.fit(X_train, y_train, epochs=10, validation_data=[X_valid, y_valid])  # <-
