# /// case
# source = "https://github.com/manicman1999/StyleGAN2-Tensorflow-2.0/issues/14"
# title = "Why two gradient tapes are used?"
# sampling = "by-pattern"
# symptom = "RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"
# flavour = "tf.keras"
# kind = "non-persistent GradientTape asked for gradients twice"
# mistake = "The proposed simplification records generator and discriminator losses on one non-persistent tape and calls gradient() on it twice."
# runtime = "raises"
# expected = ["TFL502"]
# ///
import tensorflow as tf


def train_step(gan, images, noise, gen_opt, disc_opt):
    with tf.GradientTape() as tape:
        fake = gan.GM(noise, training=True)
        real_out = gan.D(images, training=True)
        fake_out = gan.D(fake, training=True)
        gen_loss = tf.reduce_mean(tf.nn.softplus(-fake_out))
        disc_loss = tf.reduce_mean(tf.nn.softplus(fake_out) + tf.nn.softplus(-real_out))
    gradients_of_generator = tape.gradient(gen_loss, gan.GM.trainable_variables)
    gradients_of_discriminator = tape.gradient(disc_loss, gan.D.trainable_variables)  # <-
    gen_opt.apply_gradients(zip(gradients_of_generator, gan.GM.trainable_variables))
    disc_opt.apply_gradients(zip(gradients_of_discriminator, gan.D.trainable_variables))
