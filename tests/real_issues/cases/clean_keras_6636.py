# /// case
# source = "https://github.com/keras-team/keras/issues/6636"
# title = "MNIST_CNN example uses double softmax?"
# sampling = "by-pattern"
# symptom = "none; the reader suspected softmax was applied twice"
# flavour = "keras3"
# kind = "softmax output + categorical_crossentropy (from_logits=False)"
# mistake = "None: categorical_crossentropy expects probabilities by default, so a softmax output layer is the intended pairing, as the maintainers answered."
# clean = true
# ///
import keras

num_classes = 10
model = keras.Sequential(
    [
        keras.Input((28, 28, 1)),
        keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.Flatten(),
        keras.layers.Dense(num_classes, activation="softmax"),
    ]
)
model.compile(loss=keras.losses.categorical_crossentropy, optimizer="adadelta", metrics=["accuracy"])
