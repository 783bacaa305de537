# /// case
# source = "http://pullrequest.ru/9781727/nuzhna-pomosch-vybore-funktsii-poteri"
# title = "Need help choosing a loss function (stored Russian copy of a Stack Overflow question)"
# sampling = "by-symptom: model.compile categorical_crossentropy accuracy very low my labels are integers keras"
# symptom = "binary_crossentropy reports a high accuracy on a 10-class problem"
# flavour = "tf.keras"
# kind = "sigmoid + binary_crossentropy for single-label multi-class"
# mistake = "A 10-class Fashion-MNIST model ends in sigmoid units and trains with binary_crossentropy; the answer says to use softmax with categorical_crossentropy."
# runtime = "silent"
# expected = ["TFL809"]
# ///
from keras.layers import Dense, Flatten
from keras.models import Sequential
from keras.optimizers import SGD

model = Sequential()
model.add(Flatten(input_shape=(28, 28)))
model.add(Dense(10000, activation="relu"))
model.add(Dense(10, activation="sigmoid"))  # <-
model.compile(loss="binary_crossentropy", optimizer=SGD(), metrics=["accuracy"])  # <-
