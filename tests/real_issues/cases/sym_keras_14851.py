# /// case
# source = "https://github.com/keras-team/keras/issues/14851"
# title = "Failed to convert a NumPy array to a Tensor (Unsupported object type float)."
# sampling = "by-symptom: Failed to convert a NumPy array to a Tensor (Unsupported object type float)"
# symptom = "ValueError: Failed to convert a NumPy array to a Tensor (Unsupported object type float)."
# flavour = "tf.keras"
# kind = "softmax on a single-unit output"
# mistake = "An air-quality regression is built as a one-unit softmax classifier with sparse categorical cross-entropy, and the targets are a pandas frame of object dtype that was never cast."
# runtime = "raises"
# expected = ["TFL802", "TFL806"]
# ///
import numpy as np
import pandas as pd
import tensorflow as tf
from sklearn.model_selection import train_test_split
from tensorflow.keras.layers import Dense
from tensorflow.keras.models import Sequential

df = pd.read_excel("station_day.xlsx")
x = df.iloc[:, 1:13].fillna(df.mean(numeric_only=True))
y = df.iloc[:, 13:14].fillna(df.mean(numeric_only=True))
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.1)
x_train = np.asarray(x_train).astype(np.float32)

model = Sequential()
model.add(Dense(100, activation="relu"))
model.add(Dense(1, activation="softmax"))  # <-
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=False)  # <-
model.compile(optimizer="adam", metrics=["accuracy"], loss=loss)
model.fit(x_train, y_train, batch_size=32, epochs=10)  # <-
