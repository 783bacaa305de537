"""`x = x + ...` and `x += ...` on a variable replace it with a tensor (or raise)."""

import tensorflow as tf


class RunningTotal(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.total = self.add_weight(shape=(), initializer="zeros", trainable=False, name="total")

    def call(self, inputs):
        self.total = self.total + tf.reduce_sum(inputs)  # [TFL110]
        return inputs


layer = RunningTotal()
layer(tf.ones([2, 2]))
layer(tf.ones([2, 2]))
print("layer.total is now a", type(layer.total).__name__)
print("values of the tracked weights:", [float(w.numpy()) for w in layer.weights])

step = tf.Variable(0)
step += 1  # [TFL110]
