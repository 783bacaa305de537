"""Python and NumPy random numbers are drawn once, while the function is traced."""

import random

import numpy as np
import tensorflow as tf


def jitter(x):
    return x + random.randint(0, 1000)  # [TFL105]


dataset = tf.data.Dataset.range(10).map(jitter)
offsets = [int(v) - i for i, v in enumerate(dataset.as_numpy_iterator())]
print("distinct offsets in the dataset:", len(set(offsets)))


@tf.function
def noisy(x):
    return x * np.random.uniform(0.5, 1.5)  # [TFL105]


scales = {float(noisy(tf.constant(1.0))) for _ in range(5)}
print("distinct scales from the tf.function:", len(scales))
