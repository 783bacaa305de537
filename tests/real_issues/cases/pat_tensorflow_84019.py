# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/84019"
# title = "Mixing Keras Layers and TF modules."
# sampling = "by-pattern"
# symptom = "[v.name for v in layer1.trainable_variables] is empty"
# flavour = "keras3"
# kind = "Keras variables/layers held by a tf.Module (not tracked)"
# mistake = "A tf.Module stores keras.Variable objects; on Keras 3 they are not tf.Variables, so tf.Module does not collect them."
# runtime = "silent"
# expected = ["TFL304"]
# ///
import tensorflow as tf


class MockLayer(tf.Module):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.m = tf.keras.Variable(tf.random.normal([5, 5]), name="m")  # <-
        self.w = tf.keras.Variable(tf.random.normal([5, 5]), name="w")  # <-

    def __call__(self, inputs):
        return self.m * inputs


layer1 = MockLayer()
print([v.name for v in layer1.trainable_variables])
