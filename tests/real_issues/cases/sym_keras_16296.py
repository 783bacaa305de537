# /// case
# source = "https://github.com/keras-team/keras/issues/16296"
# title = "Normalization and BatchNormalization layer does not rescale or normalize inputs, am I missing something?"
# sampling = "by-symptom: Normalization layer adapt model predictions wrong mean variance keras preprocessing"
# symptom = "the normalized output is identical to the input: mean 3.0, variance 2.0"
# flavour = "tf.keras"
# kind = "Normalization layer never adapted (and BatchNormalization called in inference mode)"
# mistake = "A Normalization layer is applied without adapt() or mean/variance, so it is the identity; the BatchNormalization layer is called outside training and uses its initial moving statistics."
# runtime = "silent"
# expected = ["TFL812"]
# ///
import numpy as np
import tensorflow as tf

tfdata = np.array([[1, 2, 3, 4, 5]], dtype=float)
normalization_layer = tf.keras.layers.Normalization(axis=-1)  # <-
normalized_data = normalization_layer(tfdata)
batch_normalization_layer = tf.keras.layers.BatchNormalization(axis=-1)
batch_normalized_data = batch_normalization_layer(tfdata)  # <-
print(np.var(normalized_data.numpy()), np.var(batch_normalized_data.numpy()))
