"""Saving, exporting and checkpointing the Keras 3 way (no diagnostics expected)."""

import os
import tempfile

import keras
import numpy as np
import tensorflow as tf


def build():
    model = keras.Sequential(
        [keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)]
    )
    model.compile(optimizer="adam", loss="mse")
    return model


class Counter(tf.Module):
    """A plain tf.Module saved with tf.saved_model, not with Keras."""

    def __init__(self):
        super().__init__()
        self.count = tf.Variable(0, dtype=tf.int64)

    @tf.function(input_signature=[])
    def increment(self):
        self.count.assign_add(1)
        return self.count


def keras_formats(model, x, directory):
    path = os.path.join(directory, "model.keras")
    model.save(path)
    reloaded = keras.saving.load_model(path)
    same_model = np.allclose(model.predict(x, verbose=0), reloaded.predict(x, verbose=0))

    weights = os.path.join(directory, "model.weights.h5")
    model.save_weights(weights)
    clone = build()
    clone.load_weights(weights)
    same_weights = np.allclose(model.predict(x, verbose=0), clone.predict(x, verbose=0))

    keras.saving.save_model(model, os.path.join(directory, "copy.keras"))
    return same_model, same_weights


def export_for_serving(model, x, directory):
    export_dir = os.path.join(directory, "serving")
    model.export(export_dir)
    served = tf.saved_model.load(export_dir)
    layer = keras.layers.TFSMLayer(export_dir, call_endpoint="serve")
    return np.allclose(served.serve(x), layer(x))


def checkpoints(model, directory):
    checkpoint = tf.train.Checkpoint(model=model)
    manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=2)
    manager.save()
    prefix = checkpoint.save(os.path.join(directory, "manual"))
    checkpoint.restore(manager.latest_checkpoint).expect_partial()

    counter = Counter()
    counter.increment()
    tf.saved_model.save(counter, os.path.join(directory, "counter"))
    restored = tf.saved_model.load(os.path.join(directory, "counter"))
    np.save(os.path.join(directory, "predictions"), np.zeros(3))
    return prefix, int(restored.increment())


if __name__ == "__main__":
    x = np.random.rand(2, 3).astype("float32")
    model = build()
    model.fit(x, np.ones((2, 1)), epochs=1, verbose=0)
    with tempfile.TemporaryDirectory() as tmp:
        print("keras formats:", keras_formats(model, x, tmp))
        print("export:", export_for_serving(model, x, tmp))
        print("checkpoints:", checkpoints(model, tmp)[1])
