# /// case
# source = "https://github.com/menouarazib/eventdetector/issues/3"
# title = "File extension error"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want to export a SavedModel for use with TFLite/TFServing/etc. Received: filepath=.../models/FFN_0."
# flavour = "keras3"
# kind = "Keras 3: model.save() to a path without .keras/.h5"
# mistake = "The library saves each trained network with model.save() to a folder-style path built from the model name, which Keras 3 rejects."
# runtime = "raises"
# expected = ["TFL404"]
# ///
import os

import keras


def save_models(models, output_dir):
    for name, model in models.items():
        path = os.path.join(output_dir, "models", name)
        model.save(path)  # <-
