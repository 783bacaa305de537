# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/29492"
# title = "Multiple calls to custom layer does not work"
# sampling = "by-pattern"
# symptom = "the model's call fails when the bottleneck layer is created in the constructor, and works when it is created in call()"
# flavour = "tf.keras"
# kind = "one layer instance reused on inputs of different shape"
# mistake = "The bottleneck layer applies the same BatchNormalization instance after two convolutions with different channel counts; each place needs its own layer (creating them in call() only hides the problem)."
# runtime = "raises"
# ///
from tensorflow.keras import layers


class BottleneckLayer(layers.Layer):
    def __init__(self, growth_rate):
        super().__init__()
        self.conv1 = layers.Conv2D(4 * growth_rate, kernel_size=1, padding="same")
        self.conv2 = layers.Conv2D(growth_rate, kernel_size=3, padding="same")
        self.batch_norm = layers.BatchNormalization()
        self.relu = layers.Activation("relu")

    def call(self, x):
        y = self.batch_norm(self.relu(self.conv1(x)))  # <-
        y = self.batch_norm(self.relu(self.conv2(y)))  # <-
        return layers.concatenate([x, y])
