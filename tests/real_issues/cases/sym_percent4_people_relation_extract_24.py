# /// case
# source = "https://github.com/percent4/people_relation_extract/issues/24"
# title = "KeyError: 'val_accuracy'"
# sampling = "by-symptom: Early stopping conditioned on metric val_acc which is not available"
# symptom = "RuntimeWarning: Early stopping conditioned on metric `val_accuracy` which is not available. Available metrics are: val_loss,val_acc,loss,acc"
# flavour = "tf.keras"
# kind = "callback monitors a metric name that is never logged"
# mistake = "The metric is requested as 'acc' (logged as 'val_acc') while EarlyStopping and the history lookup use 'val_accuracy'."
# runtime = "raises"
# expected = ["TFL811"]
# ///
from keras.callbacks import EarlyStopping
from keras.layers import LSTM, Bidirectional, Dense, Embedding
from keras.models import Sequential

model = Sequential([Embedding(5000, 128), Bidirectional(LSTM(64)), Dense(14, activation="softmax")])
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["acc"])


def train(x, y):
    stopper = EarlyStopping(monitor="val_accuracy", patience=3)  # <-
    history = model.fit(x, y, validation_split=0.2, epochs=20, callbacks=[stopper])
    return history.history["val_accuracy"]  # <-
