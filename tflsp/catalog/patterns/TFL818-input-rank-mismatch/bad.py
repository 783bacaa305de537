"""An LSTM needs (batch, timesteps, features); an input of shape (10,) lacks the feature axis."""

import numpy as np
from tensorflow import keras

series = np.zeros((32, 10), "float32")  # 32 series of 10 steps, one value per step

model = keras.Sequential(
    [
        keras.Input((10,)),
        keras.layers.LSTM(8),  # [TFL818]
        keras.layers.Dense(1),
    ]
)
print("output shape:", model.output_shape)
