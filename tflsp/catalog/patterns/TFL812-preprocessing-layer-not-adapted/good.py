"""Adapt the Normalization layer to the training data before the model uses it."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.normal(loc=50.0, scale=10.0, size=(256, 3)).astype("float32")

normalize = keras.layers.Normalization()
normalize.adapt(x)
model = keras.Sequential([keras.Input((3,)), normalize, keras.layers.Dense(1)])

features = keras.Model(model.inputs, model.layers[0].output)
seen = features.predict(x, verbose=0)
print("the model sees the raw features:", bool(np.allclose(seen, x)))
print("the features are centred:", bool(abs(seen.mean()) < 0.1))
