# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/49151"
# title = "tensorflow:5 out of the last 5 calls to <function recreate_function.<locals>.restored_function_body at 0x7f8ef0275730> triggered tf.function retracing."
# sampling = "by-symptom: 5 out of the last 5 calls triggered tf.function retracing"
# symptom = "none with the suggested input_signature; variable lengths no longer retrace"
# flavour = "keras3"
# kind = "tf.function with an input_signature called on varying lengths"
# mistake = "None: the input_signature leaves the sequence length unknown, so calls with different lengths reuse one graph, as the maintainer suggested."
# clean = true
# ///
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.int64)])
def encode(token_ids):
    return tf.reduce_sum(tf.one_hot(token_ids, depth=100), axis=1)


for length in (5, 7, 11):
    encode(tf.zeros([2, length], dtype=tf.int64))
