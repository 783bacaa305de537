# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/50937"
# title = "validation_split for tensorflow.dataset"
# sampling = "by-pattern"
# symptom = "ValueError: `validation_split` is only supported for Tensors or NumPy arrays, found following types in the input: [<class 'tensorflow.python.data.ops.dataset_ops.PrefetchDataset'>]"
# flavour = "tf.keras"
# kind = "validation_split given with a dataset or generator"
# mistake = "A batched, prefetched tf.data pipeline is passed to fit() together with validation_split, which Keras can only apply to arrays and tensors."
# runtime = "raises"
# expected = ["TFL813"]
# note = "The reporter's code is in a linked notebook; the case keeps what the report states: a prefetched dataset given to fit() with validation_split (TF 2.5)."
# ///
import tensorflow as tf


def train(model, features, labels):
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(1024).batch(64).prefetch(tf.data.AUTOTUNE)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model.fit(dataset, epochs=10, validation_split=0.2)  # <-
