# /// case
# source = "https://github.com/minsuk-heo/python_tutorial/issues/2"
# title = "word2vec_tensorfow; AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow' has no attribute 'placeholder'"
# flavour = "tf1"
# kind = "TF1 API removed in TF2 (placeholder/Session/contrib/...)"
# mistake = "The word2vec notebook defines its graph with placeholders and trains with a GradientDescentOptimizer from tf.train, all TF1-only."
# runtime = "raises"
# expected = ["TFL601"]
# ///
import tensorflow as tf

ONE_HOT_DIM = 12
EMBEDDING_DIM = 2
x = tf.placeholder(tf.float32, shape=(None, ONE_HOT_DIM))  # <-
y_label = tf.placeholder(tf.float32, shape=(None, ONE_HOT_DIM))  # <-
W1 = tf.Variable(tf.random_normal([ONE_HOT_DIM, EMBEDDING_DIM]))  # <-
hidden = tf.matmul(x, W1)
prediction = tf.nn.softmax(tf.layers.dense(hidden, ONE_HOT_DIM))
loss = tf.reduce_mean(-tf.reduce_sum(y_label * tf.log(prediction), axis=[1]))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
