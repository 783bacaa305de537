# /// case
# source = "https://geek-questions.imtqy.com/articles/1270335/index.html"
# title = "Why does CNN binary Keras always predict 1?"
# sampling = "by-symptom: keras model always predicts the same class binary classification sigmoid code"
# symptom = "confusion matrix [[0 362] [0 608]]: every prediction is 1"
# flavour = "tf.keras"
# kind = "softmax on a single-unit output"
# mistake = "The 1-D CNN ends in Dense(1) followed by a softmax activation, which is constant 1; it also watches 'val_acc' and uses Keras 1 argument names."
# runtime = "silent"
# expected = ["TFL802"]
# ///
from keras.callbacks import ReduceLROnPlateau
from keras.layers import Activation, BatchNormalization, Conv1D, Dense, Dropout, Flatten, LeakyReLU
from keras.models import Sequential

model = Sequential()
model.add(Conv1D(input_shape=(10, 4), filters=16, kernel_size=4, padding="same"))
model.add(BatchNormalization())
model.add(LeakyReLU())
model.add(Dropout(0.2))
model.add(Flatten())
model.add(Dense(64))
model.add(LeakyReLU())
model.add(Dense(1))
model.add(Activation("softmax"))  # <-
reduce_lr = ReduceLROnPlateau(monitor="val_acc", factor=0.9, patience=30, min_lr=0.000001)  # <-
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
