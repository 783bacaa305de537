"""A model with a Lambda(lambda ...) layer saves fine, but load_model() refuses it."""

import os
import tempfile

from tensorflow import keras

model = keras.Sequential(
    [
        keras.Input((3,)),
        keras.layers.Lambda(lambda t: t * 2.0),  # [TFL408]
        keras.layers.Dense(1),
    ]
)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "scaled.keras")
    model.save(path)
    print("saved:", os.path.exists(path))
    restored = keras.models.load_model(path)
    print("restored layers:", len(restored.layers))
