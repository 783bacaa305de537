"""Keras 3 save_weights() only writes `.weights.h5` files; a checkpoint prefix raises."""

import os
import tempfile

from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

with tempfile.TemporaryDirectory() as tmp:
    model.save_weights(os.path.join(tmp, "ckpt"))  # [TFL405]
    print("saved files:", sorted(os.listdir(tmp)))
