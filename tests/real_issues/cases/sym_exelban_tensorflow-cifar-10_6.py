# /// case
# source = "https://github.com/exelban/tensorflow-cifar-10/issues/6"
# title = "Regarding softmax and loss"
# sampling = "by-symptom: received from_logits=True but the output argument was produced by a sigmoid or softmax activation and thus does not represent logits"
# symptom = "none raised; the TF docs warn that softmax_cross_entropy_with_logits must not receive softmax output"
# flavour = "tf1"
# kind = "softmax output fed to tf.nn.*_cross_entropy_with_logits"
# mistake = "The last dense layer applies softmax and its output is then passed as logits to softmax_cross_entropy_with_logits_v2, so softmax is applied twice."
# runtime = "silent"
# expected = ["TFL803"]
# ///
import tensorflow as tf

images = tf.placeholder(tf.float32, [None, 32 * 32 * 3])
labels = tf.placeholder(tf.float32, [None, 10])
features = tf.layers.dense(images, 512, activation=tf.nn.relu)
class_scores = tf.layers.dense(
    features,
    10,
    activation=tf.nn.softmax,  # <-
)
loss = tf.reduce_mean(
    tf.nn.softmax_cross_entropy_with_logits_v2(logits=class_scores, labels=labels)  # <-
)
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
