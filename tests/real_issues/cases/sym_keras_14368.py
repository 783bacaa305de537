# /// case
# source = "https://github.com/keras-team/keras/issues/14368"
# title = "Make sure all arrays contain the same number of samples."
# sampling = "by-symptom: ValueError: Data cardinality is ambiguous Make sure all arrays contain the same number of samples"
# symptom = "ValueError: Data cardinality is ambiguous: x sizes: 2 y sizes: 107090 Make sure all arrays contain the same number of samples"
# flavour = "tf.keras"
# kind = "Python list of samples passed as x (read as one input per element)"
# mistake = "Features collected in a Python list are passed to fit() as they are; Keras reads a list as several model inputs, so they must be stacked into one array first."
# runtime = "raises"
# ///
import numpy as np


def train(fc_model, features, labels, validation_data, validation_labels):
    train_data = []
    train_labels = []
    for f, l in zip(features, labels):
        train_data.append(f)
        train_labels.append(l)
    fc_model.fit(train_data, train_labels, epochs=500, batch_size=32, validation_data=(validation_data, validation_labels))  # <-
    fc_model.save_weights("./bottleneck_features/violence.hdf5")
    return np.stack(train_data)
