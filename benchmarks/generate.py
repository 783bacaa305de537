"""Generate a realistic TensorFlow/Keras module of a given size for the benchmarks.

The module mixes what real training code contains: imports, custom layers and models,
tf.functions, tf.data pipelines, plain helpers and a few pitfalls, so detectors have work to do.
"""

from __future__ import annotations

import argparse

HEADER = '''"""Generated benchmark module."""

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


'''

TEMPLATES = [
    """class Block{i}(keras.layers.Layer):
    def __init__(self, units={i}, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = layers.Dense(units)
        self.norm = layers.LayerNormalization()

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(self.units,), initializer="ones", name="scale")

    def call(self, inputs, training=False):
        x = self.dense(inputs)
        x = self.norm(x)
        if training:
            x = tf.nn.dropout(x, rate=0.1)
        return x * self.scale

    def get_config(self):
        return {{**super().get_config(), "units": self.units}}


""",
    """@tf.function
def train_step_{i}(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(y, logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print("traced step {i}")
    return loss


""",
    """def make_dataset_{i}(features, labels, batch_size=32):
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    ds = ds.shuffle(1024).batch(batch_size)
    ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y))
    return ds.prefetch(tf.data.AUTOTUNE)


""",
    """def summarize_{i}(values):
    total = 0
    for v in values:
        if v > {i}:
            total += v * 2
        else:
            total -= 1
    result = {{"total": total, "count": len(values), "mean": total / max(len(values), 1)}}
    return result


""",
    """class Model{i}(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.blocks = [Block{j}(units=16) for _ in range(2)]
        self.head = layers.Dense(10)
        self.steps = 0

    def call(self, inputs):
        x = inputs
        for block in self.blocks:
            x = block(x)
        self.steps += 1
        return self.head(x)


""",
]


def generate(lines: int) -> str:
    parts = [HEADER]
    count = HEADER.count("\n")
    i = 0
    while count < lines:
        template = TEMPLATES[i % len(TEMPLATES)]
        text = template.format(i=i, j=max(0, i - 4))
        parts.append(text)
        count += text.count("\n")
        i += 1
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=5000)
    args = parser.parse_args()
    print(generate(args.lines), end="")


if __name__ == "__main__":
    main()
