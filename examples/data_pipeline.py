"""An image-classification input pipeline with the classic tf.data mistakes."""

import random

import numpy as np
import tensorflow as tf

images = np.random.rand(200, 32, 32, 3).astype("float32")
labels = np.random.randint(0, 10, size=(200,))


def augment(image, label):
    angle = random.uniform(-0.2, 0.2)  # drawn once, when map traces this function
    image = image + angle
    return image, label


def load_features(path):
    return np.load(path)


dataset = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(200)
test_ds = dataset.take(40)
train_ds = dataset.skip(40)

train_ds = train_ds.map(augment)
train_ds = train_ds.batch(32)
train_ds = train_ds.shuffle(8)

small = tf.data.Dataset.range(10).batch(16, drop_remainder=True)

feature_files = tf.data.Dataset.from_tensor_slices(["part-0.npy", "part-1.npy"])
features = feature_files.map(load_features)
