# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/50111"
# title = "ValueError: No gradients provided for any variable: ['Variable:0']"
# sampling = "by-symptom: ValueError: No gradients provided for any variable custom training loop"
# symptom = "ValueError: No gradients provided for any variable: ['Variable:0']"
# flavour = "tf.keras"
# kind = "tensor converted to NumPy inside the tape"
# mistake = "The custom loss turns the prediction into a NumPy array before computing the loss, which cuts the tape, so no variable gets a gradient."
# runtime = "raises"
# expected = ["TFL504"]
# ///
import numpy as np
import tensorflow as tf

weights = tf.Variable(tf.random.normal([3, 1]))
opt = tf.keras.optimizers.Adam(0.01)


def ranking_loss(pred, target):
    order = np.argsort(-pred[:, 0])
    return tf.constant(np.mean(np.abs(pred[order] - target[order])))


def step(x, target):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, weights)
        loss = ranking_loss(pred.numpy(), target)  # <-
    grads = tape.gradient(loss, [weights])
    opt.apply_gradients(zip(grads, [weights]))
