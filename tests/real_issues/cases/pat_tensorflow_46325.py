# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/46325"
# title = "Can't create notrainable variables in the __ini__ function in tf.keras.layers.Layer."
# sampling = "by-pattern"
# symptom = "print(len(model.variables)) shows 2 where 4 were expected"
# flavour = "tf.keras"
# kind = "tf.Variable stored on a Keras layer instead of add_weight"
# mistake = "A hand-written batch normalisation layer keeps its running mean and variance as raw tf.Variable attributes; Keras 3 does not track them and they are neither saved nor listed."
# runtime = "silent"
# expected = ["TFL301"]
# ///
import tensorflow as tf


class BatchNormalization(tf.keras.layers.Layer):
    def __init__(self, shape, trainable_stats, **kwargs):
        super().__init__(**kwargs)
        self.beta = tf.Variable(tf.zeros(shape), trainable=True)  # <-
        self.gamma = tf.Variable(tf.ones(shape), trainable=True)  # <-
        self.moving_mean = tf.Variable(tf.zeros(shape), trainable=False)  # <-
        self.moving_var = tf.Variable(tf.ones(shape), trainable=False)  # <-
        self.trainable_stats = trainable_stats

    def call(self, x, training=None):
        mean, var = tf.nn.moments(x, axes=[0])
        if training:
            self.moving_mean.assign(0.9 * self.moving_mean + 0.1 * mean)
            self.moving_var.assign(0.9 * self.moving_var + 0.1 * var)
        else:
            mean, var = self.moving_mean, self.moving_var
        return tf.nn.batch_normalization(x, mean, var, self.beta, self.gamma, 1e-3)
