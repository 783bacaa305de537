# /// case
# source = "https://github.com/keras-team/keras/issues/8346"
# title = "Weird test accuracy for VGG-like training"
# sampling = "by-pattern"
# symptom = "val_acc: 0.0000e+00 in every epoch while the training accuracy improves"
# flavour = "tf.keras"
# kind = "validation_split on data ordered by class"
# mistake = "Images are loaded folder by folder, so the arrays are ordered by class; validation_split=0.2 takes the last 20%, which is the whole fifth class, before fit() shuffles anything."
# runtime = "silent"
# expected = ["TFL819"]
# ///
import glob

import cv2
import numpy as np
from keras.utils import to_categorical

CLASSES = ["class0", "class1", "class2", "class3", "class4"]


def load():
    images, labels = [], []
    for index, name in enumerate(CLASSES):
        for path in glob.glob("data/" + name + "/*.png"):
            images.append(cv2.imread(path))
            labels.append(index)
    return np.array(images), to_categorical(labels)


def train(model):
    X, y = load()
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model.fit(X, y, batch_size=32, epochs=20, validation_split=0.2, shuffle=True)  # <-
