# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/48478"
# title = "Functions attributes error \"'Functional' object has no attribute '_make_train_function'\" and eager mode and non-eager returns different logits"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Sequential' object has no attribute '_make_train_function'"
# flavour = "tf.keras"
# kind = "private Keras 2/TF1 model methods removed (_make_predict_function, _make_train_function)"
# mistake = "Training code builds its own train function through the private model._make_train_function(), which exists only with eager execution disabled."
# runtime = "raises"
# expected = ["TFL607"]
# ///
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation="softmax", input_shape=(20,))])
model.compile(loss="categorical_crossentropy", optimizer="rmsprop", metrics=["accuracy"])
model._make_train_function()  # <-
