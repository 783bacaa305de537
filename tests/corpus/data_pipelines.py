"""tf.data input pipelines in the style of the tf.data guide (no diagnostics expected)."""

import json
import os
import tempfile

import numpy as np
import tensorflow as tf

AUTOTUNE = tf.data.AUTOTUNE
BATCH_SIZE = 8


def make_arrays(n=64):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(n, 4)).astype("float32")
    labels = (features.sum(axis=1) > 0).astype("int32")
    return features, labels


def normalize(features, label):
    return tf.math.l2_normalize(features, axis=-1), label


def augment(features, label):
    noise = tf.random.normal(tf.shape(features), stddev=0.01)
    return features + noise, label


def train_val_split(features, labels, val_fraction=0.25):
    n = len(features)
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    # One fixed order, drawn once, so that take() and skip() never overlap.
    ds = ds.shuffle(n, seed=42, reshuffle_each_iteration=False)
    n_val = int(n * val_fraction)
    val = ds.take(n_val).batch(BATCH_SIZE).prefetch(AUTOTUNE)
    train = (
        ds.skip(n_val)
        .shuffle(n - n_val)
        .map(normalize, num_parallel_calls=AUTOTUNE)
        .map(augment, num_parallel_calls=AUTOTUNE)
        .batch(BATCH_SIZE)
        .prefetch(AUTOTUNE)
    )
    return train, val


def split_then_shuffle(features, labels):
    """Split the arrays first; only the training part is shuffled on every epoch."""
    cut = len(features) // 4
    val = tf.data.Dataset.from_tensor_slices((features[:cut], labels[:cut])).batch(BATCH_SIZE)
    train = tf.data.Dataset.from_tensor_slices((features[cut:], labels[cut:]))
    train = train.cache()
    train = train.shuffle(buffer_size=1000)
    train = train.batch(BATCH_SIZE, drop_remainder=True)
    return train.prefetch(AUTOTUNE), val


def paired_streams(features, labels):
    """Two datasets zipped first, then shuffled together, so the pairs stay aligned."""
    xs = tf.data.Dataset.from_tensor_slices(features)
    ys = tf.data.Dataset.from_tensor_slices(labels)
    pairs = tf.data.Dataset.zip((xs, ys))
    return pairs.shuffle(64).batch(BATCH_SIZE)


def read_records(directory):
    """Files read with TensorFlow ops inside map; Python JSON parsing wrapped in py_function."""
    paths = []
    for i in range(6):
        path = os.path.join(directory, f"record_{i}.json")
        with open(path, "w") as f:
            json.dump({"x": [float(i), float(i + 1)], "y": i % 2}, f)
        paths.append(path)

    def parse_python(text):
        record = json.loads(text.numpy())
        return np.asarray(record["x"], "float32"), np.int32(record["y"])

    def parse(path):
        text = tf.io.read_file(path)
        x, y = tf.py_function(parse_python, [text], Tout=(tf.float32, tf.int32))
        x.set_shape([2])
        y.set_shape([])
        return x, y

    files = tf.data.Dataset.from_tensor_slices(paths)
    records = files.map(parse, num_parallel_calls=AUTOTUNE)
    return records.filter(lambda x, y: tf.reduce_sum(x) > 0).batch(2)


def from_generator():
    def rows():
        for i in range(10):
            yield np.full((3,), i, "float32"), i % 3

    signature = (tf.TensorSpec((3,), tf.float32), tf.TensorSpec((), tf.int32))
    ds = tf.data.Dataset.from_generator(rows, output_signature=signature)
    return ds.shuffle(10).padded_batch(4, padded_shapes=([3], []))


def text_lines(directory):
    path = os.path.join(directory, "lines.txt")
    with open(path, "w") as f:
        f.write("a b c\nd e\nf\n")
    lines = tf.data.TextLineDataset(path)
    tokens = lines.map(tf.strings.split)
    return tokens.map(lambda t: tf.size(t))


def windows():
    series = tf.data.Dataset.range(20)
    ds = series.window(5, shift=1, drop_remainder=True)
    ds = ds.flat_map(lambda w: w.batch(5))
    ds = ds.map(lambda w: (w[:-1], w[-1]))
    return ds.shuffle(16).batch(4)


def repeated(features, labels):
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).repeat()
    return ds.batch(BATCH_SIZE, drop_remainder=True).take(3)


if __name__ == "__main__":
    features, labels = make_arrays()
    train, val = train_val_split(features, labels)
    print("train batches:", int(train.cardinality()), "val batches:", int(val.cardinality()))
    train2, _ = split_then_shuffle(features, labels)
    print("split first:", int(train2.cardinality()))
    for x, y in paired_streams(features, labels).take(1):
        print("pairs:", x.shape, y.shape)
    with tempfile.TemporaryDirectory() as tmp:
        print("records:", [tuple(x.shape) for x, _ in read_records(tmp)])
        print("line lengths:", [int(n) for n in text_lines(tmp)])
    print("generator batches:", len(list(from_generator())))
    print("windows:", len(list(windows())))
    print("repeated:", len(list(repeated(features, labels))))
