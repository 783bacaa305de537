# /// case
# source = "https://github.com/YosefLab/epitome/issues/51"
# title = "Loss is not printed"
# sampling = "by-pattern"
# symptom = "INFO:tensorflow:100 Tensor(\"Mean_3:0\", shape=(), dtype=float32)Tensor(\"Mean_4:0\", shape=(), dtype=float32)..."
# flavour = "tf.keras"
# kind = "Python logging of tensors inside tf.function"
# mistake = "The training step logs its losses with tf.compat.v1.logging.info inside a tf.function, so it prints symbolic tensors once at trace time instead of values."
# runtime = "silent"
# ///
import tensorflow as tf


class VariationalPeakModel:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    @tf.function
    def train_step(self, step, x, y):
        with tf.GradientTape() as tape:
            pred = self.model(x, training=True)
            rec = tf.reduce_mean(tf.square(pred - y))
            kl = tf.reduce_mean(self.model.losses)
            loss = rec + kl
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        tf.compat.v1.logging.info(str(step) + " " + str(loss) + str(rec) + str(kl))  # <-
        return loss
