# /// case
# source = "https://github.com/keras-team/keras/issues/11441"
# title = "Keras InvalidArgumentError while model.fit"
# sampling = "by-symptom: Received a label value of 1 which is outside the valid range of [0, 1) Dense(1) sparse_categorical_crossentropy"
# symptom = "InvalidArgumentError in model.fit (sparse_categorical_crossentropy: the label values are outside the valid range of [0, 1))"
# flavour = "tf.keras"
# kind = "sparse_categorical_crossentropy on a one-unit output"
# mistake = "A regression of a country's population on the year ends in Dense(1, softmax) and compiles sparse_categorical_crossentropy, which reads every population figure as the index of an output unit."
# runtime = "raises"
# expected = ["TFL802", "TFL806"]
# ///
import numpy as np
import pandas as pd
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import Adam

model = Sequential(
    [
        Dense(10, input_shape=(1,), activation="relu"),
        Dense(32, activation="relu"),
        Dense(1, activation="softmax"),  # <-
    ]
)
model.compile(Adam(lr=0.0001), loss="sparse_categorical_crossentropy", metrics=["accuracy"])  # <-
table = pd.read_csv("countries.csv")
one_country = table[table.country == "China"]
model.fit(np.array(one_country.year), np.array(one_country.population), batch_size=10, epochs=20)
