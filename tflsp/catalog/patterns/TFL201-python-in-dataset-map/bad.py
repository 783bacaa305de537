"""json.loads() inside Dataset.map receives a symbolic tensor, not a string."""

import json

import tensorflow as tf

records = [
    '{"features": [0.1, 0.2], "label": 1}',
    '{"features": [0.3, 0.4], "label": 0}',
    '{"features": [0.5, 0.6], "label": 1}',
]


def parse(record):
    data = json.loads(record)  # [TFL201]
    return data["features"], data["label"]


# tf.data traces parse() into a graph right here, so json.loads() sees a SymbolicTensor.
ds = tf.data.Dataset.from_tensor_slices(records).map(parse)
print("parsed elements:", len(list(ds)))
