# /// case
# source = "https://github.com/alxcnwy/Deep-Neural-Networks-for-Video-Classification/issues/7"
# title = "'val_acc' not available while running 'train_single_model.ipynb'"
# sampling = "by-symptom: Early stopping conditioned on metric val_acc which is not available"
# symptom = "Can save best model only with val_acc available, skipping. / Early stopping conditioned on metric `val_acc` which is not available. Available metrics are: loss,accuracy,val_loss,val_accuracy"
# flavour = "tf.keras"
# kind = "callback monitors a metric name that is never logged"
# mistake = "Both the checkpoint and the early-stopping callbacks monitor 'val_acc', a key that TF 2.x Keras no longer logs for metrics=['accuracy'], so no best model is ever saved."
# runtime = "raises"
# expected = ["TFL811"]
# ///
from tensorflow.keras.callbacks import EarlyStopping, ModelCheckpoint
from tensorflow.keras.layers import LSTM, Dense, TimeDistributed
from tensorflow.keras.models import Sequential

model = Sequential([TimeDistributed(Dense(256, activation="relu"), input_shape=(20, 2048)), LSTM(128), Dense(3, activation="softmax")])
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
checkpoint = ModelCheckpoint("model_best.h5", monitor="val_acc", save_best_only=True, mode="max")  # <-
stopping = EarlyStopping(monitor="val_acc", patience=10)  # <-


def run(train_x, train_y, val_x, val_y):
    return model.fit(train_x, train_y, validation_data=(val_x, val_y), epochs=20, callbacks=[checkpoint, stopping])
