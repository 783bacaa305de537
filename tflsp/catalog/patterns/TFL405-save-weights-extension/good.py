"""Name weight files `*.weights.h5` for save_weights() and load_weights()."""

import os
import tempfile

import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
copy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
x = np.ones((1, 3), "float32")

with tempfile.TemporaryDirectory() as tmp:
    model.save_weights(os.path.join(tmp, "ckpt.weights.h5"))
    copy.load_weights(os.path.join(tmp, "ckpt.weights.h5"))
    print("weights restored:", np.allclose(copy(x), model(x)))
