# /// case
# source = "https://github.com/ageron/handson-ml3/issues/140"
# title = "[BUG] Chapter 10: Syntax for saving/restoring keras model has changed"
# sampling = "by-pattern"
# symptom = "model.save(\"my_keras_model\", save_format=\"tf\") no longer works with Keras 3"
# flavour = "tf.keras"
# kind = "Keras 3: model.save() to a path without .keras/.h5"
# mistake = "The notebook saves a SavedModel folder with save_format='tf', an argument and format Keras 3's model.save() dropped (model.export() or a .keras file instead)."
# runtime = "raises"
# ///
import tensorflow as tf

input_wide = tf.keras.layers.Input(shape=[5])
input_deep = tf.keras.layers.Input(shape=[6])
hidden = tf.keras.layers.Dense(30, activation="relu")(input_deep)
concat = tf.keras.layers.concatenate([input_wide, hidden])
model = tf.keras.Model(inputs=[input_wide, input_deep], outputs=[tf.keras.layers.Dense(1)(concat)])
model.compile(loss="mse", optimizer="adam")
model.save("my_keras_model", save_format="tf")  # <-
model = tf.keras.models.load_model("my_keras_model")  # <-
