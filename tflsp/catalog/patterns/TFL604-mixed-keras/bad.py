"""Keras 3 (keras) and Keras 2 (tf_keras) are different libraries; their objects do not mix."""

import keras
import tf_keras

model = keras.Sequential([keras.Input((3,)), tf_keras.layers.Dense(1)])  # [TFL604]
print("layers:", len(model.layers))
