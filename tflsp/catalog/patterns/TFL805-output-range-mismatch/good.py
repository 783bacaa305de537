"""Tell the loss it receives raw scores (from_logits=True), or end the model in a sigmoid/softmax."""

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(256, 4)).astype("float32")
classes = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0).astype("int32")
one_hot = keras.utils.to_categorical(classes, 3)

scorer = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(3)]
)
scorer.compile(
    optimizer=keras.optimizers.Adam(0.01),
    loss=keras.losses.CategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
history = scorer.fit(x, one_hot, epochs=20, batch_size=32, verbose=0)
print("three-class accuracy above 0.9:", history.history["accuracy"][-1] > 0.9)

detector = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
detector.compile(optimizer="adam", loss="binary_crossentropy")
detector.fit(x, (classes > 0).astype("float32"), epochs=2, verbose=0)
outputs = detector.predict(x, verbose=0)
print("predictions outside [0, 1]:", bool(((outputs < 0) | (outputs > 1)).any()))
