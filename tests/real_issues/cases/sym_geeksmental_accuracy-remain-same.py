# /// case
# source = "https://geeksmental.com/question/why-does-accuracy-remain-the-same"
# title = "Why does accuracy remain the same"
# sampling = "by-symptom: keras accuracy not changing model.compile loss binary_crossentropy Dense softmax"
# symptom = "accuracy stays at about 0.5 and the loss is around 7-8 for every epoch"
# flavour = "tf.keras"
# kind = "non-sigmoid (relu/linear) output with binary_crossentropy"
# mistake = "A threshold classifier ends in a relu unit instead of a sigmoid while training with binary_crossentropy, on unscaled inputs up to 100000; the NumPy array is also shuffled with random.shuffle, which duplicates rows."
# runtime = "silent"
# expected = ["TFL805"]
# ///
import random

import numpy as np
from keras import Sequential
from keras.layers import Dense

limit = 50000
rows = []
for _ in range(5000):
    rows.append([random.randrange(0, limit), 0])
    rows.append([random.randrange(limit, 2 * limit), 1])
table = np.array(rows)
random.shuffle(table)  # <-

x = table[:, 0:1]
y = table[:, 1]
model = Sequential()
model.add(Dense(3, input_dim=1, activation="relu"))
model.add(Dense(5, activation="relu"))
model.add(Dense(1, activation="relu"))  # <-
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
model.fit(x, y, epochs=10, batch_size=5)
