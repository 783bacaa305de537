# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/28512"
# title = "AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# flavour = "tf1"
# kind = "TF1 API removed in TF2 (placeholder/Session/contrib/...)"
# mistake = "A TF1 hand-pose demo builds its input with tf.placeholder and runs it in a tf.Session under TF 2."
# runtime = "raises"
# expected = ["TFL601"]
# ///
import numpy as np
import tensorflow as tf

image_tf = tf.placeholder(tf.float32, shape=(1, 240, 320, 3))  # <-
hand_side_tf = tf.constant([[1.0, 0.0]])
scaled = tf.image.resize_images(image_tf, (256, 256))  # <-
sess = tf.Session()  # <-
out = sess.run(scaled, feed_dict={image_tf: np.zeros((1, 240, 320, 3))})
