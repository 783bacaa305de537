# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/50190"
# title = "Code in the Documentation is resulting in Warning Message"
# sampling = "by-pattern"
# symptom = "none once the output layer has no softmax; the warning came from the reporter's own softmax"
# flavour = "keras3"
# kind = "linear output + from_logits=True"
# mistake = "None: the output layer returns logits and the loss is told so with from_logits=True, as in the official training-loop guide."
# clean = true
# ///
import keras
import tensorflow as tf

inputs = keras.Input(shape=(784,), name="digits")
x1 = keras.layers.Dense(64, activation="relu")(inputs)
x2 = keras.layers.Dense(64, activation="relu")(x1)
outputs = keras.layers.Dense(10, name="predictions")(x2)
model = keras.Model(inputs=inputs, outputs=outputs)
optimizer = keras.optimizers.SGD(learning_rate=1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss_value


print(train_step(tf.ones((2, 784)), tf.constant([1, 2])))
