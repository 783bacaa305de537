# /// case
# source = "http://pullrequest.ru/10248037/cnn-keras-shodyatsya-odnomu-tomu-zhe-znacheniy-nezavisimo-vvoda"
# title = "CNN Keras converges to the same value regardless of the input (stored Russian copy of a Stack Overflow question)"
# sampling = "by-symptom: keras validation accuracy stuck model.fit validation_data code"
# symptom = "the CNN outputs the same value for every input and the accuracy does not move"
# flavour = "tf.keras"
# kind = "image inputs fed unscaled (0-255)"
# mistake = "The images go into the network as raw 0-255 pixel values; without scaling the first updates are huge and training stalls."
# runtime = "silent"
# ///
from keras.datasets import cifar10
from keras.layers import Conv2D, Dense, Flatten, MaxPooling2D
from keras.models import Sequential
from keras.utils import to_categorical

(x_train, y_train), (x_test, y_test) = cifar10.load_data()
model = Sequential([Conv2D(32, 3, activation="relu", input_shape=(32, 32, 3)), MaxPooling2D(), Flatten(), Dense(10, activation="softmax")])
model.compile(optimizer="sgd", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(x_train, to_categorical(y_train), validation_data=(x_test, to_categorical(y_test)), epochs=20)  # <-
