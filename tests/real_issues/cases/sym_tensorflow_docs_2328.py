# /// case
# source = "https://github.com/tensorflow/docs/pull/2328"
# title = "optimizer attribute learning_rate"
# sampling = "by-symptom: AttributeError: 'Adam' object has no attribute 'lr'"
# symptom = "AttributeError: 'Adam' object has no attribute 'lr'"
# flavour = "keras3"
# kind = "optimizer.lr attribute (Keras 3 only has learning_rate)"
# mistake = "The notebook reads the current learning rate with model.optimizer.lr, which Keras 3 optimizers no longer have."
# runtime = "raises"
# expected = ["TFL602"]
# ///
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
print(model.optimizer.lr.numpy())  # <-
