# /// case
# source = "https://github.com/Vishal-V/GSoC-TensorFlow-2019/issues/4"
# title = "ValueError: logits and labels must have the same shape ((128, 1) vs ())"
# sampling = "by-symptom: ValueError: logits and labels must have the same shape"
# symptom = "ValueError: logits and labels must have the same shape ((128, 1) vs ())"
# flavour = "tf.keras"
# kind = "targets passed as a Python list (read as one target per output)"
# mistake = "The GAN step passes [1] * batch_size as the target; Keras reads a Python list as one target per model output, so the single output gets a scalar label."
# runtime = "raises"
# ///
import numpy as np
import tensorflow as tf

batch_size = 128
latent = tf.keras.Input((100,))
cond = tf.keras.Input((10,))
h = tf.keras.layers.Concatenate()([latent, cond])
validity = tf.keras.layers.Dense(1, activation="sigmoid")(h)
adversarial = tf.keras.Model([latent, cond], validity)
adversarial.compile(optimizer="adam", loss="binary_crossentropy")

z = np.random.normal(size=(batch_size, 100))
c = np.random.normal(size=(batch_size, 10))
g_loss = adversarial.train_on_batch([z, c], [1] * batch_size)  # <-
