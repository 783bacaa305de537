# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/39817"
# title = "AttributeError: 'Tensor' object has no attribute 'numpy'"
# sampling = "by-symptom: AttributeError: 'Tensor' object has no attribute 'numpy'"
# symptom = "AttributeError: 'Tensor' object has no attribute 'numpy'"
# flavour = "tf.keras"
# kind = ".numpy() inside a Keras loss/metric function (runs in graph)"
# mistake = "A custom top-10 overlap metric returns dcount.numpy(); Keras runs metrics inside a tf.function, where tensors are symbolic."
# runtime = "raises"
# expected = ["TFL102"]
# ///
import tensorflow as tf


def top10_overlap(y_true, y_pred):
    pred_rank = tf.argsort(tf.nn.softmax(y_pred), axis=-1, direction="DESCENDING")[None, :10]
    true_rank = tf.argsort(tf.nn.softmax(y_true), axis=-1, direction="DESCENDING")[None, :10]
    common = tf.sparse.to_dense(tf.sets.intersection(pred_rank, true_rank))
    return common.numpy()  # <-


model = tf.keras.Sequential([tf.keras.layers.Dense(50)])
model.compile(optimizer="adam", loss="mse", metrics=[top10_overlap])
