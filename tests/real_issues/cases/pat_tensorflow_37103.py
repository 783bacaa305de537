# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/37103"
# title = "Add support for more keras.metrics.* to accept from_logits argument."
# sampling = "by-pattern"
# symptom = "precision, recall, AUC and the true/false positive counts are wrong for a model that outputs logits"
# flavour = "tf.keras"
# kind = "threshold metrics on a logit output"
# mistake = "A binary model outputs logits (Dense(1), BinaryCrossentropy(from_logits=True)) but keeps the default 0.5 thresholds of Precision, BinaryAccuracy, Recall, AUC and the confusion counts."
# runtime = "silent"
# expected = ["TFL808"]
# ///
from tensorflow import keras

model = keras.Sequential(
    [
        keras.layers.Dense(16, activation="relu", input_shape=(30,)),
        keras.layers.Dense(1),
    ]
)
model.compile(
    optimizer=keras.optimizers.Adam(learning_rate=1e-3),
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[
        keras.metrics.Precision(name="precision"),  # <-
        keras.metrics.BinaryAccuracy(name="accuracy"),  # <-
        keras.metrics.Recall(name="recall"),  # <-
        keras.metrics.AUC(name="auc"),  # <-
        keras.metrics.TruePositives(name="tp"),  # <-
        keras.metrics.FalsePositives(name="fp"),  # <-
    ],
)
