# /// case
# source = "https://github.com/finlay-liu/kaggle_public/issues/5"
# title = "`val_acc` which is not available"
# sampling = "by-symptom: Early stopping conditioned on metric val_acc which is not available"
# symptom = "RuntimeWarning: Early stopping conditioned on metric `val_acc` which is not available. Available metrics are: val_loss,val_accuracy,val_acc_top2,loss,accuracy,acc_top2"
# flavour = "tf.keras"
# kind = "callback monitors a metric name that is never logged"
# mistake = "EarlyStopping and ReduceLROnPlateau watch 'val_acc' while the model is compiled with metrics=['accuracy'], which is logged as 'val_accuracy'."
# runtime = "raises"
# expected = ["TFL811"]
# note = "Keras 2.3 warned and never stopped; Keras 3.15 raises ValueError (cannot tell min or max) at the end of the first epoch."
# ///
from tensorflow import keras

model = keras.applications.MobileNetV2(weights=None, classes=120)
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
callbacks = [
    keras.callbacks.EarlyStopping(monitor="val_acc", patience=5),  # <-
    keras.callbacks.ReduceLROnPlateau(monitor="val_acc", factor=0.5, patience=2),  # <-
]


def train(train_ds, val_ds):
    return model.fit(train_ds, validation_data=val_ds, epochs=50, callbacks=callbacks)
