# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/42713"
# title = "issue with iterating over batched mapped tf.data.Dataset object"
# sampling = "by-pattern"
# symptom = "none from the wrapping; the maintainer found the failure inside the augmentation library, not in tf.numpy_function"
# flavour = "keras3"
# kind = "NumPy augmentation wrapped in tf.numpy_function inside Dataset.map"
# mistake = "None: the NumPy/albumentations code runs through tf.numpy_function and the static shape is restored with set_shape, which is the documented way."
# clean = true
# ///
import numpy as np
import tensorflow as tf


def aug_fn(image):
    flipped = np.fliplr(image) if np.random.rand() > 0.5 else image
    return flipped.astype(np.float32) / 255.0


def process(image, label):
    out = tf.numpy_function(aug_fn, [image], tf.float32)
    out.set_shape([64, 64, 3])
    return out, label


images = np.zeros((8, 64, 64, 3), dtype=np.uint8)
labels = np.zeros((8,), dtype=np.int32)
ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(process, num_parallel_calls=tf.data.AUTOTUNE).batch(4)
