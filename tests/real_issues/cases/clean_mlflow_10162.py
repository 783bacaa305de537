# /// case
# source = "https://github.com/mlflow/mlflow/pull/10162"
# title = "Use `.keras` extension when saving a keras model"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "none after the fix; the path built from a directory and a file name ends in .keras"
# flavour = "keras3"
# kind = "model.save() to a path built at run time that ends in .keras"
# mistake = "None: the file name joined onto the directory ends in .keras, which Keras 3 accepts."
# clean = true
# ///
import os
import tempfile

import keras

MODEL_FILE = "model.keras"
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "data", MODEL_FILE)
    os.makedirs(os.path.dirname(path))
    model.save(path)
    restored = keras.saving.load_model(path)
