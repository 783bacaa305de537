"""TF1 names no longer exist in the tf namespace of TensorFlow 2."""

import tensorflow as tf

x = tf.constant([1.0, 2.0])
print("log:", tf.log(x))  # [TFL601]

optimizer = tf.train.AdamOptimizer(learning_rate=0.1)  # [TFL601]
with tf.Session() as session:  # [TFL601]
    print(session.run(tf.random_normal([2])))  # [TFL601]
