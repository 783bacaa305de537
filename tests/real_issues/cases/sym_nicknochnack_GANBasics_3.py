# /// case
# source = "https://github.com/nicknochnack/GANBasics/issues/3"
# title = "expects 1 input(s), but it received 2 input tensors"
# sampling = "by-symptom: Layer sequential expects 1 input(s), but it received 2 input tensors"
# symptom = "ValueError: ... expects 1 input(s), but it received 2 input tensors: (<tf.Tensor 'IteratorGetNext:0' shape=(None, 256, 256, 1) dtype=float32>, <tf.Tensor 'IteratorGetNext:1' shape=(None,) dtype=int32>)"
# flavour = "tf.keras"
# kind = "dataset yields (x, y) but the model/train_step expects x only"
# mistake = "The GAN's train_step treats each batch as images, but the dataset comes from image_dataset_from_directory and yields (images, labels) pairs."
# runtime = "raises"
# ///
import tensorflow as tf

train = tf.keras.utils.image_dataset_from_directory("data", color_mode="grayscale", image_size=(256, 256))  # <-
train = train.map(lambda x, y: (x / 255.0, y))


class FashionGAN(tf.keras.Model):
    def __init__(self, generator, discriminator):
        super().__init__()
        self.generator = generator
        self.discriminator = discriminator

    def train_step(self, batch):
        real_images = batch  # <-
        fake_images = self.generator(tf.random.normal((128, 128, 1)), training=False)
        yhat_real = self.discriminator(real_images, training=True)
        yhat_fake = self.discriminator(fake_images, training=True)
        return {"d_real": tf.reduce_mean(yhat_real), "d_fake": tf.reduce_mean(yhat_fake)}
