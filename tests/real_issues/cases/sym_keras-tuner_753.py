# /// case
# source = "https://github.com/keras-team/keras-tuner/issues/753"
# title = "`y` argument is not supported when using dataset as input."
# sampling = "by-symptom: `y` argument is not supported when using dataset as input"
# symptom = "ValueError: `y` argument is not supported when using dataset as input."
# flavour = "tf.keras"
# kind = "targets passed as y next to a dataset or generator"
# mistake = "The features and the labels are built as two separate batched datasets and passed to the tuner's search() (which forwards them to fit()) as x and y, instead of one dataset of (features, label) pairs."
# runtime = "raises"
# expected = ["TFL817"]
# ///
import keras_tuner as kt
import tensorflow as tf


def tune(build_model, frame, labels):
    x_ds = tf.data.Dataset.from_tensor_slices(dict(frame)).batch(32)
    y_ds = tf.data.Dataset.from_tensor_slices(labels).batch(32)
    tuner = kt.BayesianOptimization(build_model, objective="val_accuracy", max_trials=10)
    tuner.search(x_ds, y_ds, epochs=5)  # <-
