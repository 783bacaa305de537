# /// case
# source = "https://github.com/google-research/maxvit/issues/6"
# title = "Bug: get_config() not in MaxViT"
# sampling = "by-pattern"
# symptom = "NotImplementedError: Layer MaxViT has arguments ['config'] in `__init__` and therefore must override `get_config()`."
# flavour = "tf.keras"
# kind = "custom layer with constructor arguments but no get_config()"
# mistake = "A model class built from a config object has no get_config(), and ModelCheckpoint with save_weights_only=False tries to save the whole model each epoch."
# runtime = "raises"
# note = "tf.keras 2 raised; Keras 3.15 records plain constructor arguments (ints, dicts of ints) automatically, so get_config() is no longer required for these (checked)."
# ///
import tensorflow as tf


class MaxViT(tf.keras.layers.Layer):  # <-
    def __init__(self, config, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        self.stem = tf.keras.layers.Conv2D(config["hidden"], 3, strides=2, padding="same")
        self.head = tf.keras.layers.Dense(config["classes"])

    def call(self, x):
        return self.head(tf.reduce_mean(self.stem(x), axis=[1, 2]))


inputs = tf.keras.Input((224, 224, 3))
model = tf.keras.Model(inputs, MaxViT({"hidden": 64, "classes": 10})(inputs))
model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
ckpt = tf.keras.callbacks.ModelCheckpoint("maxvit_ckpt", save_weights_only=False)  # <-
