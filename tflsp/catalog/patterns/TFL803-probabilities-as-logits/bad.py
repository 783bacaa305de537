"""from_logits=True tells the loss it receives raw scores; these outputs are probabilities."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")

model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)
model.compile(optimizer="adam", loss=keras.losses.BinaryCrossentropy(from_logits=True))  # [TFL803]
model.fit(x, y, epochs=2, verbose=0)
reported = model.evaluate(x, y, verbose=0)
by_hand = float(model.loss(y, model.predict(x, verbose=0)))
print("evaluate() agrees with the loss of predict():", abs(reported - by_hand) < 1e-3)

scores = tf.constant([[6.0, -2.0, 0.0], [0.5, 3.0, -1.0]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
probabilities = tf.nn.softmax(scores)
twice = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=probabilities)  # [TFL803]
once = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=scores)
print("softmax applied twice changes the loss:", bool(np.all(np.abs(twice - once) > 0.1)))
