# /// case
# source = "https://github.com/keras-team/keras/issues/3396"
# title = "No error thrown for binary crossentropy with multiple classes"
# sampling = "by-pattern"
# symptom = "no error or warning: the 10-class MNIST CNN trains with binary_crossentropy on its softmax output"
# flavour = "tf.keras"
# kind = "softmax output + binary_crossentropy"
# mistake = "The MNIST CNN example keeps its 10-way softmax but its loss is switched to binary_crossentropy, which scores every class unit as a separate yes/no."
# runtime = "silent"
# expected = ["TFL804"]
# ///
from keras.layers import Activation, Conv2D, Dense, Dropout, Flatten, MaxPooling2D
from keras.models import Sequential

nb_classes = 10
model = Sequential()
model.add(Conv2D(32, (3, 3), padding="valid", input_shape=(28, 28, 1)))
model.add(Activation("relu"))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Dropout(0.25))
model.add(Flatten())
model.add(Dense(128))
model.add(Activation("relu"))
model.add(Dense(nb_classes))
model.add(Activation("softmax"))
model.compile(loss="binary_crossentropy", optimizer="adadelta", metrics=["accuracy"])  # <-
