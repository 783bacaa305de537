"""steps_per_epoch asks for more batches than a finite dataset holds: the input runs out."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.zeros((64, 4), "float32")
y = np.zeros((64, 1), "float32")
train = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)  # 8 batches


class CountBatches(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.batches = 0

    def on_train_batch_end(self, batch, logs=None):
        self.batches += 1


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
counter = CountBatches()
history = model.fit(train, steps_per_epoch=20, epochs=3, callbacks=[counter], verbose=0)  # [TFL815]
print("epochs run:", len(history.history["loss"]), "of 3")
print("batches run:", counter.batches, "of 60")
