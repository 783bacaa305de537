# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/41413"
# title = "Threshold to be set 0 when using binary accuracy with raw prediction values (from_logits=True)"
# sampling = "by-pattern"
# symptom = "the reported accuracy uses the 0.5 threshold on raw logits"
# flavour = "tf.keras"
# kind = "threshold metrics on a logit output"
# mistake = "The transfer-learning tutorial's head is a Dense(1) without activation trained with BinaryCrossentropy(from_logits=True), but metrics=['accuracy'] cuts the logits at 0.5 instead of 0."
# runtime = "silent"
# expected = ["TFL808"]
# ///
import tensorflow as tf

IMG_SHAPE = (160, 160, 3)
base_model = tf.keras.applications.MobileNetV2(input_shape=IMG_SHAPE, include_top=False, weights="imagenet")
base_model.trainable = False
global_average_layer = tf.keras.layers.GlobalAveragePooling2D()
prediction_layer = tf.keras.layers.Dense(1)
model = tf.keras.Sequential([base_model, global_average_layer, prediction_layer])

base_learning_rate = 0.0001
model.compile(
    optimizer=tf.keras.optimizers.RMSprop(learning_rate=base_learning_rate),
    loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=["accuracy"],  # <-
)
