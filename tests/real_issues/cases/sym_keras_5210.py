# /// case
# source = "https://github.com/keras-team/keras/issues/5210"
# title = "Wrong keras acc?"
# sampling = "by-symptom: keras predict gives wrong results on new image but training accuracy high"
# symptom = "accuracy around 0.96 while the predictions look very wrong"
# flavour = "tf.keras"
# kind = "sigmoid + binary_crossentropy for single-label multi-class"
# mistake = "A 30-class text classifier uses 30 sigmoid units with binary_crossentropy, so 'accuracy' counts the many correct zeros of each one-hot row."
# runtime = "silent"
# expected = ["TFL809"]
# ///
from keras.layers import LSTM, Dense, Dropout, Embedding
from keras.models import Sequential

top_words = 5000
max_review_length = 600
model = Sequential()
model.add(Embedding(top_words, 64, input_length=max_review_length))
model.add(Dropout(0.2))
model.add(LSTM(100))
model.add(Dropout(0.2))
model.add(Dense(30, activation="sigmoid"))  # <-
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])  # <-
