"""Two *_dataset_from_directory() calls with different seeds split the files differently."""

import os
import tempfile

from tensorflow import keras


def write_reviews(root):
    for label in ("neg", "pos"):
        os.makedirs(os.path.join(root, label))
        for i in range(20):
            with open(os.path.join(root, label, f"{i}.txt"), "w") as fh:
                fh.write(f"{label} review {i}")


def texts(ds):
    return {text for batch, _ in ds.as_numpy_iterator() for text in batch}


with tempfile.TemporaryDirectory() as root:
    write_reviews(root)
    train_ds = keras.utils.text_dataset_from_directory(
        root, validation_split=0.25, subset="training", seed=1
    )
    val_ds = keras.utils.text_dataset_from_directory(
        root, validation_split=0.25, subset="validation", seed=2  # [TFL207]
    )
    print("validation files also used for training:", len(texts(train_ds) & texts(val_ds)))
