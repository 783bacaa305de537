# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/11840"
# title = "Using a `tf.Tensor` as a Python `bool` is not allowed"
# sampling = "by-pattern"
# symptom = "TypeError: Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` instead of `if t:` to test if a tensor is defined"
# flavour = "tf1"
# kind = "Session.run given fetches as separate arguments (second one is read as feed_dict)"
# mistake = "sess.run(a, b) passes b as the feed_dict argument; the fetches must be one list, sess.run([a, b])."
# runtime = "raises"
# ///
import tensorflow as tf

a = tf.constant([1, 2, 3])
b = tf.equal(a, 0)
with tf.Session() as ss:
    print(ss.run(a, b))  # <-
