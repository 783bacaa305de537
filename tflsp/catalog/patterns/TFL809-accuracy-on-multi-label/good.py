"""Per-label accuracy for a multi-label output: keras.metrics.BinaryAccuracy()."""

import numpy as np
from tensorflow import keras

tags = np.array([[1, 1, 1, 0], [1, 0, 1, 1], [0, 1, 1, 1]], "float32")
photos = np.eye(3, dtype="float32")
# Each photo's output: 0.9 for its first tag and 0.1 for every other tag.
confident = np.array([[0.9, 0.1, 0.1, 0.1], [0.9, 0.1, 0.1, 0.1], [0.1, 0.9, 0.1, 0.1]], "float32")

tagger = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="sigmoid")])
tagger.layers[-1].set_weights([np.log(confident / (1 - confident)), np.zeros(4, "float32")])
tagger.compile(
    optimizer="adam",
    loss="binary_crossentropy",
    metrics=[keras.metrics.BinaryAccuracy(name="accuracy")],
)
scores = tagger.evaluate(photos, tags, verbose=0, return_dict=True)
print("'accuracy' reports every photo right:", scores["accuracy"] == 1.0)
print("'accuracy' counts half the tags right:", abs(scores["accuracy"] - 0.5) < 1e-6)
predicted = tagger.predict(photos, verbose=0) > 0.5
print("tags predicted right:", int((predicted == (tags > 0.5)).sum()), "of", tags.size)
