"""Keep the counter in a non-trainable weight and update it with assign_add()."""

import numpy as np
import tensorflow as tf


class CountingModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1)
        self.batches_seen = self.add_weight(
            shape=(), initializer="zeros", trainable=False, dtype="int64", name="batches_seen"
        )

    def call(self, inputs):
        self.batches_seen.assign_add(1)
        return self.dense(inputs)


x = np.random.rand(20, 3).astype("float32")
y = np.random.rand(20, 1).astype("float32")
model = CountingModel()
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)  # 5 batches
print("batches counted:", int(model.batches_seen.numpy()))
print("counter is a tracked weight:", len(model.non_trainable_weights) == 1)
