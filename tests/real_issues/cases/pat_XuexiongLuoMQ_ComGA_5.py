# /// case
# source = "https://github.com/XuexiongLuoMQ/ComGA/issues/5"
# title = "ValueError: A KerasTensor cannot be used as input to a TensorFlow function."
# sampling = "by-pattern"
# symptom = "ValueError: A KerasTensor cannot be used as input to a TensorFlow function."
# flavour = "keras3"
# kind = "raw TensorFlow op applied to a symbolic keras.Input"
# mistake = "After replacing TF1 placeholders with keras.Input, the hand-written graph-convolution layer still applies tf.matmul directly to the symbolic input instead of running inside a Keras layer."
# runtime = "raises"
# expected = ["TFL605"]
# ///
import tensorflow as tf
from tensorflow import keras


class GraphConvolution:
    def __init__(self, input_dim, output_dim):
        self.weights = tf.Variable(tf.random.normal([input_dim, output_dim]))

    def __call__(self, x, adj):
        output = tf.matmul(x, self.weights)  # <-
        return tf.matmul(adj, output)  # <-


features = keras.Input(shape=(2000,))
adj = keras.Input(shape=(2000,))
hidden1 = GraphConvolution(2000, 500)(features, adj)
