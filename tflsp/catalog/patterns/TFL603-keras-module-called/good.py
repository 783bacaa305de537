"""Call the layer class, and give Sequential a list of layers."""

import tensorflow as tf

model = tf.keras.Sequential(
    [
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1),
    ]
)
single = tf.keras.Sequential([tf.keras.layers.Dense(3)])
print("layers:", len(model.layers), len(single.layers))
