"""Pass training=True when a custom training step calls the model."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(0)
x = rng.random((32, 8), dtype="float32")
y = rng.random((32, 1), dtype="float32")

model = keras.Sequential(
    [keras.Input((8,)), keras.layers.Dense(16), keras.layers.Dropout(0.5), keras.layers.Dense(1)]
)
optimizer = keras.optimizers.SGD(0.01)
loss_fn = keras.losses.MeanSquaredError()

inference = model(x, training=False)  # before the update, for comparison
with tf.GradientTape() as tape:
    predictions = model(x, training=True)
    loss = loss_fn(y, predictions)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))

print("the training step used dropout:", not bool(np.allclose(predictions, inference)))
