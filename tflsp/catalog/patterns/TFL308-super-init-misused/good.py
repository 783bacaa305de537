"""Call super().__init__(**kwargs) first, without self, then set attributes."""

import tensorflow as tf


class PassMask(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, x):
        return x


class Scale(tf.keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor


class Shift(tf.keras.layers.Layer):
    def __init__(self, offset, **kwargs):
        super(Shift, self).__init__(**kwargs)
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
