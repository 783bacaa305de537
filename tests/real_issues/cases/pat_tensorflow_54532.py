# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/54532"
# title = "tape.gradient returns None when assign is used in a model for computation of a function"
# sampling = "by-pattern"
# symptom = "tape.gradient returns None"
# flavour = "tf.keras"
# kind = "variable.assign() inside the differentiated computation"
# mistake = "To evaluate a log-posterior at x, the model's call assigns x into its weight with w.assign(x) and then uses w; assign is not differentiable, so the tape cannot link the result to x."
# runtime = "silent"
# ///
import tensorflow as tf


class DummyModel(tf.keras.Model):
    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(), dtype=tf.float64, initializer="zeros")

    def call(self, x):
        self.w.assign(x)  # <-
        return -0.5 * self.w**2


model = DummyModel()
model.build(())
x = tf.constant(1.5, dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    log_post = model(x)
print(tape.gradient(log_post, x))
