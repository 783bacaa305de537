# /// case
# source = "https://github.com/mead-ml/mead-baseline/pull/368"
# title = "fix: grads and variables could get unaligned"
# sampling = "by-pattern"
# symptom = "updates land on the wrong variables when the model has a non-trainable variable"
# flavour = "tf.keras"
# kind = "grads zipped with a different variable list than they were computed for"
# mistake = "Gradients computed for trainable_variables are zipped with model.variables, which also holds non-trainable variables, so gradients and variables fall out of step."
# runtime = "silent"
# ///
import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.variables))  # <-
    return loss
