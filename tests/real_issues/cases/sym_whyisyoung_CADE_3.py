# /// case
# source = "https://github.com/whyisyoung/CADE/issues/3"
# title = "No gradients provided for any variable: {variable}"
# sampling = "by-symptom: ValueError: No gradients provided for any variable custom training loop"
# symptom = "ValueError: No gradients provided for any variable: (['encoder_0/kernel:0', 'encoder_0/bias:0', ...],)"
# flavour = "tf.keras"
# kind = "loss computed before minimize()/the tape, callable returns a constant"
# mistake = "TF1-style autoencoder code computes the loss tensor first and hands minimize() a lambda returning it, with var_list from tf.compat.v1.trainable_variables(); under TF2 the loss is a constant."
# runtime = "raises"
# ///
import tensorflow as tf


class ContrastiveAE:
    def __init__(self, dims):
        self.encoder = tf.keras.Sequential([tf.keras.layers.Dense(d, activation="relu") for d in dims])
        self.decoder = tf.keras.Sequential([tf.keras.layers.Dense(d) for d in reversed(dims)])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def train(self, x):
        recon = self.decoder(self.encoder(x))
        loss = tf.reduce_mean(tf.square(recon - x))  # <-
        self.optimizer.minimize(loss=lambda: loss, var_list=tf.compat.v1.trainable_variables())  # <-
