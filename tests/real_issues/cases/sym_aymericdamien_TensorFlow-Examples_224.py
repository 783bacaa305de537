# /// case
# source = "https://github.com/aymericdamien/TensorFlow-Examples/issues/224"
# title = "tf.nn.sparse_softmax_cross_entropy_with_logits & \"ValueError: Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1 (received 2)."
# sampling = "by-symptom: Shape mismatch: The shape of labels should equal the shape of logits except for the last dimension sparse_categorical_crossentropy"
# symptom = "ValueError: Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1 (received 2)."
# flavour = "tf1"
# kind = "one-hot labels with sparse_categorical_crossentropy"
# mistake = "The estimator's model_fn gives one-hot labels to tf.nn.sparse_softmax_cross_entropy_with_logits, which takes class indices."
# runtime = "raises"
# ///
import tensorflow as tf


def model_fn(features, labels, mode):
    logits = tf.layers.dense(tf.layers.flatten(features["images"]), 10)
    pred_classes = tf.argmax(logits, axis=1)
    loss_op = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=tf.cast(labels, dtype=tf.int32)))  # <-
    acc_op = tf.metrics.accuracy(labels=labels, predictions=pred_classes)
    return loss_op, acc_op
