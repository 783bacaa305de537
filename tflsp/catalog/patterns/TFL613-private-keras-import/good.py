"""Import Keras classes from the public API (tf.keras or keras)."""

import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer

print("is a tf.keras layer:", isinstance(Dense(2), tf.keras.layers.Layer))
print("Layer base class available:", issubclass(Dense, Layer))
