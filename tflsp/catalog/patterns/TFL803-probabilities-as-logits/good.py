"""Either the output layer returns raw scores and the loss gets from_logits=True, or neither."""

import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")

model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(1),
    ]
)
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
model.compile(optimizer="adam", loss=loss_fn)
model.fit(x, y, epochs=2, verbose=0)
reported = model.evaluate(x, y, verbose=0)
by_hand = float(loss_fn(y, model.predict(x, verbose=0)))
print("evaluate() agrees with the loss of predict():", abs(reported - by_hand) < 1e-3)

scores = tf.constant([[6.0, -2.0, 0.0], [0.5, 3.0, -1.0]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
probabilities = tf.nn.softmax(scores)
from_scores = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=scores)
by_definition = -tf.reduce_sum(labels * tf.math.log(probabilities), axis=-1)
print("softmax applied twice changes the loss:", bool(np.all(np.abs(from_scores - by_definition) > 0.1)))
