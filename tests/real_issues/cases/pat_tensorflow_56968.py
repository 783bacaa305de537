# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/56968"
# title = "tape.gradient is returning none"
# sampling = "by-pattern"
# symptom = "grads:  None"
# flavour = "tf.keras"
# kind = "gradient with respect to a tensor the tape does not watch / that the target does not depend on"
# mistake = "The gradient of a constant is asked with respect to a tf.ones tensor that is neither watched nor used to compute the target."
# runtime = "silent"
# expected = ["TFL503"]
# ///
import tensorflow as tf

ones = tf.ones([1, 128, 128, 1], tf.float32)
with tf.GradientTape() as tape:
    class_channel = tf.constant([4.4328732], dtype=tf.float32)
    grads = tape.gradient(class_channel, ones)  # <-
print("grads:", grads)
