# /// case
# source = "https://github.com/aws-samples/amazon-sagemaker-mlops-workshop/pull/16"
# title = "Fix model saving by creating directory and using .keras extension"
# sampling = "by-symptom: Invalid filepath extension for saving. Please add either a `.keras` extension"
# symptom = "ValueError: Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras format (recommended) or a `.h5` extension."
# flavour = "keras3"
# kind = "Keras 3: model.save() to a path without .keras/.h5"
# mistake = "The workshop notebook saves to 'model' + '/1', a TF-Serving style SavedModel folder, which Keras 3 model.save() no longer writes."
# runtime = "raises"
# expected = ["TFL404"]
# ///
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.save("model" + "/1")  # <-
