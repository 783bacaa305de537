# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/34221"
# title = "Got different result if train Keras model eagerly"
# sampling = "by-pattern"
# symptom = "training eagerly gives another (worse) result than training in graph mode"
# flavour = "tf.keras"
# kind = "linear output + crossentropy without from_logits=True"
# mistake = "The CIFAR-10 model ends in Dense(10) without a softmax while the loss is sparse_categorical_crossentropy with its default from_logits=False, so raw scores are clipped and read as probabilities."
# runtime = "silent"
# expected = ["TFL805"]
# note = "The discussion traces the eager/graph difference to the probability path of sparse_categorical_crossentropy; the loss spelling in compile() is paraphrased."
# ///
import tensorflow as tf
import tensorflow_datasets as tfds

train_dataset = tfds.load(name="cifar10")["train"]
tf.config.experimental_run_functions_eagerly(True)

model = tf.keras.models.Sequential(
    [
        tf.keras.layers.Flatten(input_shape=(32, 32, 3)),
        tf.keras.layers.Dense(10),  # <-
    ]
)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])  # <-
batches = train_dataset.map(lambda item: (tf.cast(item["image"], tf.float32) / 255.0, item["label"])).batch(64)
model.fit(batches, epochs=5)
