# /// case
# source = "https://github.com/keras-team/keras/issues/15420"
# title = "[BUG] Omitting loss in model.compile will result in unhelpful error message"
# sampling = "by-symptom: loss nan model.compile model.fit keras my code"
# symptom = "ValueError: No gradients provided for any variable: ['dense_3/kernel:0', 'dense_3/bias:0']."
# flavour = "tf.keras"
# kind = "compile() without a loss, then fit()"
# mistake = "The model is compiled with only an optimizer and then fitted, so there is no loss to differentiate."
# runtime = "raises"
# ///
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam")  # <-
model.fit(np.zeros((16, 3)), np.zeros((16, 1)), epochs=1)
