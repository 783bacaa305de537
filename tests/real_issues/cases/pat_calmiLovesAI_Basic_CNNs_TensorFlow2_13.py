# /// case
# source = "https://github.com/calmiLovesAI/Basic_CNNs_TensorFlow2/issues/13"
# title = "[DenseBlock] ValueError: tf.function-decorated function tried to create variables on non-first call."
# sampling = "by-pattern"
# symptom = "ValueError: tf.function-decorated function tried to create variables on non-first call."
# flavour = "tf.keras"
# kind = "layer constructed inside call()"
# mistake = "DenseBlock makes new BottleNeck layers inside call() (through a helper) and appends features to a Python list attribute on every call."
# runtime = "raises"
# expected = ["TFL303", "TFL104"]
# ///
import tensorflow as tf


class BottleNeck(tf.keras.layers.Layer):
    def __init__(self, growth_rate, drop_rate):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(growth_rate, 3, padding="same")
        self.drop = tf.keras.layers.Dropout(drop_rate)

    def call(self, x, training=None):
        return self.drop(tf.nn.relu(self.conv(x)), training=training)


class DenseBlock(tf.keras.layers.Layer):
    def __init__(self, num_layers, growth_rate, drop_rate):
        super().__init__()
        self.num_layers = num_layers
        self.growth_rate = growth_rate
        self.drop_rate = drop_rate
        self.features_list = []

    def _make_layer(self, x, training):
        y = BottleNeck(growth_rate=self.growth_rate, drop_rate=self.drop_rate)(x, training=training)  # <-
        self.features_list.append(y)  # <-
        return tf.concat(self.features_list, axis=-1)

    def call(self, inputs, training=None):
        self.features_list.append(inputs)  # <-
        x = inputs
        for _ in range(self.num_layers):
            x = self._make_layer(x, training=training)
        self.features_list.clear()
        return x
