# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/26404"
# title = "Returned None Values when computing Gradients"
# sampling = "by-pattern"
# symptom = "None values in grads for the BatchNormalization layers"
# flavour = "tf.keras"
# kind = "gradients taken for model.variables (includes non-trainable) instead of trainable_variables"
# mistake = "Gradients are requested for model.variables, which includes the batch-norm moving statistics; the loss is also computed after the tape's block has closed."
# runtime = "silent"
# expected = ["TFL505"]
# ///
import tensorflow as tf

model = tf.keras.applications.ResNet50(weights=None)
optimizer = tf.keras.optimizers.SGD(0.01)


def compute_loss(prediction, label):
    return tf.reduce_mean(tf.square(prediction - label))


def train_step(x, label):
    with tf.GradientTape() as tape:
        prediction = model(x, training=True)
    loss = compute_loss(prediction, label)  # <-
    grads = tape.gradient(loss, model.variables)  # <-
    optimizer.apply_gradients(zip(grads, model.variables))  # <-
