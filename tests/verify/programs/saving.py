"""Probe targets for save/load in a fresh process."""

import tensorflow as tf

keras = tf.keras


class Unregistered(keras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@keras.utils.register_keras_serializable(package="tflsp_tests")
class Registered(keras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


# tflsp: verify(args={"units": 5})
@keras.utils.register_keras_serializable(package="tflsp_tests")
class DefaultedWithoutConfig(keras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)


# tflsp: verify(args={"units": 5})
@keras.utils.register_keras_serializable(package="tflsp_tests")
class RequiredWithoutConfig(keras.Model):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)
