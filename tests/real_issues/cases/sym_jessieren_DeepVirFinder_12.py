# /// case
# source = "https://github.com/jessieren/DeepVirFinder/issues/12"
# title = "val_acc vs. val_accuracy"
# sampling = "by-symptom: Early stopping conditioned on metric val_acc which is not available"
# symptom = "RuntimeWarning: Early stopping conditioned on metric `val_acc` which is not available. Available metrics are: val_loss,val_accuracy,loss,accuracy"
# flavour = "tf.keras"
# kind = "callback monitors a metric name that is never logged"
# mistake = "The training script's early-stopping rule monitors 'val_acc' but the metric is requested as 'accuracy', so the logged key is 'val_accuracy'."
# runtime = "raises"
# expected = ["TFL811"]
# ///
import keras
from keras.callbacks import EarlyStopping, ModelCheckpoint
from keras.layers import Conv1D, Dense, GlobalMaxPooling1D, Input

seq = Input((1000, 4))
h = GlobalMaxPooling1D()(Conv1D(64, 10, activation="relu")(seq))
model = keras.Model(seq, Dense(1, activation="sigmoid")(h))
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

stop = EarlyStopping(monitor="val_acc", patience=5, verbose=1)  # <-
best = ModelCheckpoint("best.h5", monitor="val_acc", save_best_only=True)  # <-


def fit(x_tr, y_tr, x_val, y_val):
    model.fit(x_tr, y_tr, validation_data=(x_val, y_val), epochs=30, callbacks=[stop, best])
