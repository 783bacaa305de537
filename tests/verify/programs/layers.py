"""Probe targets: layers that track their variables and layers that do not."""

import tensorflow as tf

keras = tf.keras


class Tracked(keras.layers.Layer):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="kernel"
        )

    def call(self, x):
        return x @ self.kernel


class RawVariable(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
        self.scale = tf.Variable(2.0, name="scale")  # untracked on Keras 3 only

    def call(self, x):
        return (x @ self.kernel) * self.scale


class LayerInCall(keras.layers.Layer):
    def call(self, x):
        return keras.layers.Dense(2)(x)  # a new Dense, with new variables, on every call


class _Holder:
    """A plain object: Keras does not look inside it."""


class OnPlainHelper(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.holder = _Holder()
        self.holder.dense = keras.layers.Dense(2)

    def call(self, x):
        return self.holder.dense(x)


class UnusedWeight(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
        self.unused = self.add_weight(shape=(2,), name="unused")

    def call(self, x):
        return x @ self.kernel


# tflsp: verify(args={"units": 4}, input_shape=(2, 6))
class NeedsUnits(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)


class NoDefaults(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)


class ImageOnly(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv = keras.layers.Conv2D(2, 3)

    def call(self, x):
        return self.conv(x)


def not_a_layer(x):
    return x
