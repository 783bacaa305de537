"""Give threshold metrics the logit cut (0.0), or end the model in a sigmoid."""

import numpy as np
from tensorflow import keras

x = np.array([[-2.0], [-0.3], [0.2], [0.4], [1.5], [3.0]], "float32")
y = np.array([[0], [0], [1], [1], [1], [1]], "float32")

model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
model.layers[-1].set_weights([np.ones((1, 1), "float32"), np.zeros((1,), "float32")])
model.compile(
    optimizer="adam",
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[
        keras.metrics.BinaryAccuracy(name="accuracy", threshold=0.0),
        keras.metrics.Recall(thresholds=0.0),
    ],
)
scores = model.evaluate(x, y, verbose=0, return_dict=True)
print("samples right by the 'accuracy' metric:", round(scores["accuracy"] * len(y)), "of", len(y))
print("positives found by the recall metric:", round(scores["recall"] * 4), "of 4")
logits = model.predict(x, verbose=0)
print("samples really classified right:", int(((logits > 0) == (y > 0.5)).sum()), "of", len(y))
