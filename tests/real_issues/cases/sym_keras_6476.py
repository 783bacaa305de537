# /// case
# source = "https://github.com/keras-team/keras/issues/6476"
# title = "Negative loss: Binary crossentropy + Mean squared error < 0"
# sampling = "by-symptom: binary crossentropy loss negative keras training"
# symptom = "loss: -4.4241e+00 - generator_loss: -5.3198e+00 - discriminator_loss: 0.8956"
# flavour = "tf.keras"
# kind = "custom loss indexes the batch axis as if it were separate outputs"
# mistake = "The combined loss takes y_true[0] and y_true[1] as the image and the real/fake flag, but they are the first two samples of the batch; Keras calls a loss once per output."
# runtime = "silent"
# ///
from keras.losses import binary_crossentropy, mean_squared_error


def ae_gan_loss(y_true, y_pred):
    image_true, flag_true = y_true[0], y_true[1]  # <-
    image_pred, flag_pred = y_pred[0], y_pred[1]  # <-
    loss = mean_squared_error(image_true, image_pred)
    loss += binary_crossentropy(flag_true, flag_pred)
    return loss


def compile_stack(discriminator_on_autoencoder):
    discriminator_on_autoencoder.compile(optimizer="adam", loss=ae_gan_loss)
