"""Imports from Keras internals: modules that moved, or were never public."""

import tensorflow as tf
from tensorflow.python.keras.layers import Dense  # [TFL613]

print("is a tf.keras layer:", isinstance(Dense(2), tf.keras.layers.Layer))

import keras.engine as KE  # [TFL613]

print("keras.engine imported:", KE.__name__)
