"""assign_add() updates the variable in place, eagerly and in graphs."""

import tensorflow as tf


class RunningTotal(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.total = self.add_weight(shape=(), initializer="zeros", trainable=False, name="total")

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs))
        return inputs


layer = RunningTotal()
layer(tf.ones([2, 2]))
layer(tf.ones([2, 2]))
print("layer.total is now a", type(layer.total).__name__)
print("values of the tracked weights:", [float(w.numpy()) for w in layer.weights])

step = tf.Variable(0)
step.assign_add(1)
print("step:", int(step.numpy()))
