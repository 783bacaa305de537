# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/19465"
# title = "Mixing Keras layers and tf.layers in Estimator ( or otherwise)"
# sampling = "by-pattern"
# symptom = "mixing tf.keras layers with tf.layers.Dense does not work"
# flavour = "tf1"
# kind = "tf.layers (TF1) layers used inside a Keras model"
# mistake = "A model stacks tf.keras Dense layers and then a tf.layers.Dense output layer; tf.layers is TF1-only and its variables are not tracked by Keras."
# runtime = "raises"
# expected = ["TFL306"]
# ///
import tensorflow as tf

inputs = tf.keras.Input((784,))
x = tf.keras.layers.Dense(64, activation="relu", name="d1")(inputs)
x = tf.keras.layers.Dense(64, activation="relu", name="d2")(x)
predictions = tf.layers.Dense(units=10, activation=tf.nn.softmax, name="d3")(x)  # <-
model = tf.keras.Model(inputs, predictions)
