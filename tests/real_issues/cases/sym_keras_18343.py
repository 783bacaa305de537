# /// case
# source = "https://github.com/keras-team/keras/issues/18343"
# title = "Print warning when using `tf.keras.Model.fit()` with a `tf.data` dataset and `batch_size` argument is supplied"
# sampling = "by-symptom: model.fit dataset batch_size argument ignored when x is a tf.data.Dataset, expected min_ndim=2 found ndim=1 forgot batch()"
# symptom = "a cryptic error about inconsistent dimensions in the model; batch_size is silently ignored for a tf.data dataset"
# flavour = "tf.keras"
# kind = "batch_size given to fit() with a dataset"
# mistake = "The dataset is built from slices and never batched; the batch size is given to fit() instead, where Keras ignores it for datasets, so every single sample reaches the model as a batch."
# runtime = "raises"
# expected = ["TFL820"]
# ///
import tensorflow as tf


def train(model, features, targets):
    train_ds = tf.data.Dataset.from_tensor_slices((features, targets)).shuffle(10000)
    model.compile(optimizer="adam", loss="mse")
    model.fit(train_ds, batch_size=64, epochs=20)  # <-
