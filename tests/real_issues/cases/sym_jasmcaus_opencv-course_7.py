# /// case
# source = "https://github.com/jasmcaus/opencv-course/issues/7"
# title = "produces sequential model and error using model.fit method"
# sampling = "by-symptom: ValueError: Data cardinality is ambiguous Make sure all arrays contain the same number of samples"
# symptom = "ValueError: Data cardinality is ambiguous: x sizes: 80, 80, 80, 80, ..."
# flavour = "tf.keras"
# kind = "Python list of samples passed as x (read as one input per element)"
# mistake = "The face images are kept in a Python list of arrays and given to model.fit(), which treats every element as a separate input."
# runtime = "raises"
# ///
import cv2
import numpy as np
from tensorflow.keras import layers, models

features = []
labels = []
for path, label in [("a.jpg", 0), ("b.jpg", 1)]:
    features.append(cv2.resize(cv2.imread(path, cv2.IMREAD_GRAYSCALE), (80, 80)))
    labels.append(label)

model = models.Sequential([layers.Flatten(input_shape=(80, 80)), layers.Dense(2, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(features, np.array(labels), epochs=10)  # <-
