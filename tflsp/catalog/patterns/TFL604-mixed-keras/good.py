"""Build the whole model with one Keras."""

import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
print("layers:", len(model.layers))
