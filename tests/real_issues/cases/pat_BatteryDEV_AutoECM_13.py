# /// case
# source = "https://github.com/BatteryDEV/AutoECM/issues/13"
# title = "Train/Validation Split Bug CNN"
# sampling = "by-pattern"
# symptom = "validation accuracy suspiciously high; the validation subset shares images with the training subset"
# flavour = "keras3"
# kind = "training/validation subsets of *_dataset_from_directory split differently (seed, shuffle or fraction)"
# mistake = "Both subsets use the same seed, but the training call shuffles and the validation call passes shuffle=False, so the validation files are cut from the unshuffled list and overlap the training files."
# runtime = "silent"
# expected = ["TFL207"]
# ///
import tensorflow as tf


def load_splits(input_dir, input_shape):
    train_ds = tf.keras.utils.image_dataset_from_directory(
        f"{input_dir}/train",
        validation_split=0.1,
        subset="training",
        seed=20,
        image_size=input_shape,
        label_mode="categorical",
        shuffle=True,
        color_mode="grayscale",
    )
    val_ds = tf.keras.utils.image_dataset_from_directory(
        f"{input_dir}/train",
        validation_split=0.1,
        subset="validation",
        seed=20,
        image_size=input_shape,
        label_mode="categorical",
        shuffle=False,  # <-
        color_mode="grayscale",
    )
    return train_ds, val_ds
