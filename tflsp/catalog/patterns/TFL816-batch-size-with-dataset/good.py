"""Choose the batch size where the dataset is batched; fit() takes the batches as they come."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.zeros((64, 4), "float32")
y = np.zeros((64, 1), "float32")
train = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)


class CountSteps(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.steps = 0

    def on_train_batch_end(self, batch, logs=None):
        self.steps += 1


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
counter = CountSteps()
model.fit(train, epochs=1, callbacks=[counter], verbose=0)
print("samples per step:", 64 // counter.steps)
