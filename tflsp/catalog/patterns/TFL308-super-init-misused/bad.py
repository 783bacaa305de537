"""Three ways to get super().__init__() wrong in a Keras layer."""

import tensorflow as tf


class PassMask(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        self.supports_masking = True  # [TFL308]
        super().__init__(**kwargs)

    def call(self, x):
        return x


class Scale(tf.keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super(tf.keras.layers.Layer, self).__init__(**kwargs)  # [TFL308]
        self.factor = factor

    def call(self, x):
        return x * self.factor


class Shift(tf.keras.layers.Layer):
    def __init__(self, offset):
        super().__init__(self)  # [TFL308]
        self.offset = offset

    def call(self, x):
        return x + self.offset


print("masking kept:", PassMask().supports_masking)
for make in (lambda: Scale(2.0), lambda: Shift(1.0)):
    try:
        make()(tf.ones((1, 3)))
        print("layer works")
    except (RuntimeError, TypeError) as error:
        print("layer failed:", type(error).__name__)
