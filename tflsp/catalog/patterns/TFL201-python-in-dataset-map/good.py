"""Run the Python parser in tf.py_function and give the result its shape back."""

import json

import numpy as np
import tensorflow as tf
from tensorflow import keras

records = [
    '{"features": [0.1, 0.2], "label": 1}',
    '{"features": [0.3, 0.4], "label": 0}',
    '{"features": [0.5, 0.6], "label": 1}',
]


def parse_in_python(record):
    # Runs eagerly, once per element: record is an EagerTensor holding bytes.
    data = json.loads(record.numpy())
    return np.asarray(data["features"], "float32"), np.float32(data["label"])


def parse(record):
    return tf.py_function(parse_in_python, [record], Tout=(tf.float32, tf.float32))


def restore_shapes(features, label):
    # py_function forgets the shapes; Keras 3 fit() needs them back.
    return tf.ensure_shape(features, [2]), tf.ensure_shape(label, [])


untyped = tf.data.Dataset.from_tensor_slices(records).map(parse)
print("feature shape after py_function:", untyped.element_spec[0].shape)
ds = untyped.map(restore_shapes)
print("feature shape after ensure_shape:", ds.element_spec[0].shape)
print("labels:", [int(label) for _, label in ds])

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
history = model.fit(ds.batch(2), epochs=2, verbose=0)
print("epochs trained:", len(history.history["loss"]))
