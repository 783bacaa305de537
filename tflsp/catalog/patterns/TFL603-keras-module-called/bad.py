"""tf.keras.layers is a module; the layer is one of its classes, such as Dense."""

import tensorflow as tf

model = tf.keras.Sequential(
    [
        tf.keras.Input((4,)),
        tf.keras.layers(8, activation="relu"),  # [TFL603]
        tf.keras.layers(1),  # [TFL603]
    ]
)
print("layers:", len(model.layers))
