# /// case
# source = "https://github.com/keras-team/keras/issues/15838"
# title = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# sampling = "by-symptom: AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# symptom = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# flavour = "tf.keras"
# kind = "Keras 3 / TF 2.6+ removed Sequential.predict_classes/predict_proba"
# mistake = "A binary classifier's labels are read with predict_classes(), which TF 2.6 removed; thresholding predict() at 0.5 is the replacement."
# runtime = "raises"
# expected = ["TFL607"]
# ///
import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.Input((30,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
samples = np.random.rand(100, 30)
labels = model.predict_classes(samples)  # <-
