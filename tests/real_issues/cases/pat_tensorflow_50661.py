# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/50661"
# title = "Calculation of gradient of 2D convolution operation through GradientTape returns None"
# sampling = "by-pattern"
# symptom = "the gradients of the conv2d output with respect to x and w are None"
# flavour = "tf.keras"
# kind = "gradient with respect to a tensor the tape does not watch / that the target does not depend on"
# mistake = "The input and filter are plain tensors made with tf.constant and never watched, so the tape records nothing for them."
# runtime = "silent"
# expected = ["TFL503"]
# ///
import numpy as np
import tensorflow as tf

x_np = np.random.randint(10, size=(1, 4, 4, 1))
w_np = np.random.randint(10, size=(3, 3, 1, 1))
with tf.GradientTape() as g:
    x = tf.constant(x_np, dtype=tf.float32)
    w = tf.constant(w_np, dtype=tf.float32)
    y = tf.nn.conv2d(x, w, strides=(1, 1, 1, 1), padding="VALID")
dy_dx, dy_dw = g.gradient(y, [x, w])  # <-
