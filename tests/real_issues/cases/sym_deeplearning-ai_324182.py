# /// case
# source = "https://community.deeplearning.ai/t/loss-values-do-not-change/324182"
# title = "Loss values do not change"
# sampling = "by-symptom: model.add(Dense loss not decreasing keras what am I doing wrong"
# symptom = "most runs the loss sticks at one value from the first epoch"
# flavour = "tf.keras"
# kind = "relu (non-linear, bounded-below) activation on a regression output"
# mistake = "Fitting y = 2x - 1 (negative targets included), the output layer is Dense(1, activation='relu'), which cannot go below zero and dies, so the loss freezes."
# runtime = "silent"
# ///
import numpy as np
from keras import Model
from keras.layers import Dense, Input
from tensorflow import keras

x = np.reshape(np.array([[-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]), (7, 1))
y = np.reshape(np.array([[-3.0, -1.0, 1.0, 3.0, 5.0, 7.0, 9.0]]), (7, 1))
input_1 = Input(shape=(1,))
dense_1 = Dense(4, activation="relu")(input_1)
dense_2 = Dense(2, activation="relu")(dense_1)
dense_3 = Dense(1, activation="relu")(dense_2)  # <-
model_2 = Model(inputs=input_1, outputs=dense_3)
model_2.compile(loss=keras.losses.MeanSquaredError(), optimizer=keras.optimizers.Adam(0.001))
model_2.fit(x, y, epochs=500)
