# /// case
# source = "https://boohere.com/ru/detail/80265.html"
# title = "Keras binary classifier with Dense(1, softmax) always answers class 0 (stored copy of a Stack Overflow question, title not shown)"
# sampling = "by-symptom: keras accuracy not changing model.compile loss binary_crossentropy Dense softmax"
# symptom = "accuracy does not change; every prediction is the same class"
# flavour = "tf.keras"
# kind = "softmax on a single-unit output"
# mistake = "The second model ends in Dense(1, activation='softmax'), whose output is always 1.0, so nothing can be learned."
# runtime = "silent"
# expected = ["TFL802"]
# ///
from keras.layers import Dense
from keras.models import Sequential

model = Sequential()
model.add(Dense(64, input_dim=20, activation="relu"))
model.add(Dense(1, activation="softmax"))  # <-
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
