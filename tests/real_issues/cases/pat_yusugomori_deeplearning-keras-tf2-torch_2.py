# /// case
# source = "https://github.com/yusugomori/deeplearning-keras-tf2-torch/issues/2"
# title = "TensorFlow (keras subclassing API) 利用時のDropoutの挙動の制御"
# sampling = "by-pattern"
# symptom = "Dropout in a subclassed model trained with a custom GradientTape loop does not behave as in training"
# flavour = "tf.keras"
# kind = "model with Dropout/BatchNormalization called without training=True in a training step"
# mistake = "The book's custom training step calls a subclassed model that contains Dropout layers without training=True, so dropout is never applied during training."
# runtime = "silent"
# expected = ["TFL814"]
# ///
import tensorflow as tf
from tensorflow.keras import layers, losses, optimizers
from tensorflow.keras.models import Model


class DNN(Model):
    def __init__(self, hidden_dim, output_dim):
        super().__init__()
        self.l1 = layers.Dense(hidden_dim, activation="relu")
        self.d1 = layers.Dropout(0.5)
        self.l2 = layers.Dense(hidden_dim, activation="relu")
        self.d2 = layers.Dropout(0.5)
        self.out = layers.Dense(output_dim, activation="softmax")

    def call(self, x):
        h = self.d1(self.l1(x))
        h = self.d2(self.l2(h))
        return self.out(h)


model = DNN(200, 10)
criterion = losses.SparseCategoricalCrossentropy()
optimizer = optimizers.SGD(learning_rate=0.01)


@tf.function
def train_step(x, t):
    with tf.GradientTape() as tape:
        preds = model(x)  # <-
        loss = criterion(t, preds)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
