# /// case
# source = "https://github.com/ReDASers/PhishBench/issues/158"
# title = "DNN Early Stopping warning"
# sampling = "by-symptom: Early stopping conditioned on metric val_acc which is not available"
# symptom = "WARNING:tensorflow:Early stopping conditioned on metric `val_loss` which is not available. Available metrics are: loss,accuracy"
# flavour = "tf.keras"
# kind = "monitor='val_*' without validation data"
# mistake = "EarlyStopping watches val_loss, but fit() gets neither validation_data nor validation_split, so early stopping never triggers."
# runtime = "warns"
# expected = ["TFL811"]
# ///
import tensorflow as tf


def train_dnn(x_train, y_train):
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=3)  # <-
    model.fit(x_train, y_train, epochs=100, callbacks=[stop])  # <-
    return model
