# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/56381"
# title = "Support item assignment in tensor object."
# sampling = "by-pattern"
# symptom = "TypeError: 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment"
# flavour = "tf.keras"
# kind = "item assignment on a tensor"
# mistake = "A decoding loop fills a preallocated tf.zeros tensor step by step with outputs[i, ...] = value."
# runtime = "raises"
# expected = ["TFL109"]
# ///
import tensorflow as tf

outputs = tf.zeros((5, 4))
for step_index in range(5):
    outputs[step_index, ...] = step_index + 1  # <-
