# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/35329"
# title = "Error: Cannot convert 'auto' to EagerTensor of dtype float"
# sampling = "by-symptom: Cannot convert 'auto' to EagerTensor of dtype float loss"
# symptom = "TypeError: Cannot convert 'auto' to EagerTensor of dtype float"
# flavour = "tf.keras"
# kind = "y_true/y_pred swapped in a loss definition"
# mistake = "The Loss subclass takes call(self, yPred, yTrue) although Keras passes the labels first, and the class is called with the tensors instead of being instantiated first."
# runtime = "raises"
# expected = ["TFL810"]
# ///
import tensorflow as tf


class GeneralDiceLoss(tf.keras.losses.Loss):
    def __init__(self, reduction=tf.keras.losses.Reduction.AUTO, name="GeneralDiceLoss"):
        super().__init__(reduction=reduction, name=name)
        self.epsilon = 1e-16

    def call(self, yPred, yTrue):  # <-
        weights = 1.0 / (tf.reduce_sum(yTrue, axis=[1, 2]) ** 2 + self.epsilon)
        overlap = tf.reduce_sum(weights * tf.reduce_sum(yPred * yTrue, axis=[1, 2]), axis=-1)
        total = tf.reduce_sum(weights * tf.reduce_sum(yPred + yTrue, axis=[1, 2]), axis=-1)
        return 1.0 - 2.0 * overlap / (total + self.epsilon)


prediction = tf.random.uniform((2, 8, 8, 3))
target = tf.cast(tf.random.uniform((2, 8, 8, 3)) > 0.5, tf.float32)
print(GeneralDiceLoss(prediction, target))  # <-
