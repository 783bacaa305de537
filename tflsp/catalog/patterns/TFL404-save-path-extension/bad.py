"""Keras 3 model.save() needs a .keras (or .h5) file name; a bare directory raises."""

import os
import tempfile

from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

with tempfile.TemporaryDirectory() as tmp:
    model.save(os.path.join(tmp, "my_model"))  # [TFL404]
    print("saved files:", sorted(os.listdir(tmp)))
