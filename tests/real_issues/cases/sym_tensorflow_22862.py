# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/22862"
# title = "Tf keras functional model with tf dataset input"
# sampling = "by-symptom: model.fit dataset batch_size argument ignored when x is a tf.data.Dataset, expected min_ndim=2 found ndim=1 forgot batch()"
# symptom = "fit() fails with a shape error: the model receives single samples of shape (32,)"
# flavour = "tf.keras"
# kind = "dataset given to fit() without batch()"
# mistake = "dataset.batch(10) and dataset.repeat() are called without keeping their results, so fit() receives the unbatched dataset of single samples."
# runtime = "raises"
# expected = ["TFL820"]
# ///
import numpy as np
import tensorflow as tf
from tensorflow import keras

data = np.random.random((1000, 32))
labels = np.random.random((1000, 10))
dataset = tf.data.Dataset.from_tensor_slices((data, labels))
dataset.batch(10)  # <-
dataset.repeat()  # <-

inputs = keras.Input(shape=(32,))
x = keras.layers.Dense(64, activation="relu")(inputs)
predictions = keras.layers.Dense(10, activation="softmax")(x)
model = keras.Model(inputs=inputs, outputs=predictions)
model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(dataset, epochs=10, steps_per_epoch=30)
