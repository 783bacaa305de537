"""Save a .keras file; use export() when you need a TensorFlow SavedModel directory."""

import os
import tempfile

import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
x = np.ones((1, 3), "float32")

with tempfile.TemporaryDirectory() as tmp:
    model.save(os.path.join(tmp, "my_model.keras"))
    restored = keras.models.load_model(os.path.join(tmp, "my_model.keras"))
    print("keras file reloads:", np.allclose(restored(x), model(x)))

    model.export(os.path.join(tmp, "serving"))
    serving = keras.layers.TFSMLayer(os.path.join(tmp, "serving"), call_endpoint="serve")
    print("SavedModel reloads:", np.allclose(serving(x), model(x)))
