"""A Python counter updated in call() is only updated while Keras traces the model."""

import numpy as np
import tensorflow as tf


class CountingModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)
        self.batches_seen = 0

    def call(self, inputs):
        self.batches_seen += 1  # [TFL104]
        return self.dense(inputs)


x = np.random.rand(20, 3).astype("float32")
y = np.random.rand(20, 1).astype("float32")
model = CountingModel()
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)  # 5 batches
print("batches counted:", model.batches_seen)
