# /// case
# source = "https://github.com/ftramer/ensemble-adv-training/issues/4"
# title = "No gradients provided for any variable: ['cnn_model_2/conv2d_6/kernel:0', ...]"
# sampling = "by-symptom: ValueError: No gradients provided for any variable custom training loop"
# symptom = "ValueError: No gradients provided for any variable: ['cnn_model_2/conv2d_6/kernel:0', 'cnn_model_2/conv2d_6/bias:0', ...]"
# flavour = "tf.keras"
# kind = "forward pass outside the GradientTape"
# mistake = "The model's logits are computed in the outer loop and passed into train_step, so the tape inside train_step never sees the model's variables being used."
# runtime = "raises"
# expected = ["TFL505"]
# ///
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, activation="relu"), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
cross_entropy = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
cnn_optimizer = tf.keras.optimizers.Adam(1e-4)


def train_step(logits, labels):
    with tf.GradientTape() as cnn_tape:
        loss = cross_entropy(labels, logits)
    gradient_of_cnn = cnn_tape.gradient(loss, model.trainable_variables)
    cnn_optimizer.apply_gradients(zip(gradient_of_cnn, model.trainable_variables))


def train(dataset, epochs):
    for _ in range(epochs):
        for image_batch, label_batch in dataset:
            logits = model(image_batch)  # <-
            train_step(logits, label_batch)
