# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/31264"
# title = "GradientTape() unable to compute the gradient wrt Keras model inputs"
# sampling = "by-pattern"
# symptom = "tape.gradient(loss, model.inputs) prints [None]"
# flavour = "tf.keras"
# kind = "tape watches the model's symbolic inputs instead of the batch tensor"
# mistake = "The step watches model.inputs (the symbolic Input of the functional model) after the forward pass instead of watching the images tensor before it."
# runtime = "silent"
# ///
import tensorflow as tf

model = tf.keras.applications.MobileNetV2(weights=None)
loss_object = tf.keras.losses.SparseCategoricalCrossentropy()


def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images)
        tape.watch(model.inputs)  # <-
        loss = loss_object(labels, predictions)
    print(tape.gradient(loss, model.inputs))  # <-
