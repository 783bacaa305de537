# /// case
# source = "https://github.com/keras-team/keras/issues/15271"
# title = "Missing _keras_logits from model.predict(x) leads to difference in loss evaluation"
# sampling = "by-symptom: received from_logits=True but the output argument was produced by a sigmoid or softmax activation and thus does not represent logits"
# symptom = "the loss computed by hand from model.predict() differs from the loss Keras reports in evaluate()"
# flavour = "tf.keras"
# kind = "sigmoid/softmax output + from_logits=True"
# mistake = "The output layer already applies a sigmoid while the loss is told it receives logits, so the sigmoid is applied twice."
# runtime = "warns"
# expected = ["TFL803"]
# ///
import numpy as np
import tensorflow as tf

inputs = tf.keras.Input(shape=(8,))
hidden = tf.keras.layers.Dense(16, activation="relu")(inputs)
score = tf.keras.layers.Dense(1, activation="sigmoid")(hidden)  # <-
clf = tf.keras.Model(inputs, score)

bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)  # <-
clf.compile(optimizer="adam", loss=bce)

features = np.random.rand(64, 8).astype("float32")
targets = np.random.randint(0, 2, size=(64, 1)).astype("float32")
clf.fit(features, targets, epochs=2, verbose=0)
print(clf.evaluate(features, targets, verbose=0), bce(targets, clf.predict(features)).numpy())
