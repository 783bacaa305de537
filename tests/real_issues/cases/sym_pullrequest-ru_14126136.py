# /// case
# source = "http://pullrequest.ru/14126136/polzovatelskaya-funktsiya-poter-dlya-prognozirovaniya-vyhodnyh-dannyh-interget"
# title = "Custom loss function for predicting integer outputs (stored Russian copy of a Stack Overflow question)"
# sampling = "by-symptom: model.compile categorical_crossentropy accuracy very low my labels are integers keras"
# symptom = "the model does not predict the discrete classes well"
# flavour = "tf.keras"
# kind = "regression loss (MSE) for a classification target"
# mistake = "Discrete class labels 1..N are predicted by a single linear unit trained with mean squared error instead of an N-way softmax with sparse categorical cross-entropy."
# runtime = "silent"
# ///
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD

N = 5
model = Sequential()
model.add(Dense(32, activation="relu", input_dim=20))
model.add(Dense(1))  # <-
model.compile(optimizer=SGD(0.001), loss="mean_squared_error")  # <-
