"""Give the LSTM a (timesteps, features) input: one feature per step here."""

import numpy as np
from tensorflow import keras

series = np.zeros((32, 10), "float32")  # 32 series of 10 steps, one value per step

model = keras.Sequential(
    [
        keras.Input((10, 1)),
        keras.layers.LSTM(8),
        keras.layers.Dense(1),
    ]
)
print("output shape:", model.output_shape)
print("prediction shape:", model.predict(series[..., np.newaxis], verbose=0).shape)
