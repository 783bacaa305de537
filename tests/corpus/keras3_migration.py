"""Idiomatic TensorFlow 2 / Keras 3 code near the migration patterns (no diagnostics expected)."""

import keras
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
legacy_gpus = tf.config.experimental.list_physical_devices("GPU")
tf.random.set_seed(0)
logger = tf.get_logger()

inputs = keras.Input(shape=(16,))
hidden = keras.layers.Dense(32, activation="relu")(inputs)
scaled = hidden * 0.5 + 1.0
pooled = keras.ops.mean(scaled, axis=-1, keepdims=True)
joined = keras.layers.Concatenate()([hidden, pooled])
model = keras.Model(inputs, joined)


class L2Normalize(keras.layers.Layer):
    def call(self, x):
        return tf.math.l2_normalize(x, axis=-1)


def build_encoder(units):
    source = keras.Input(shape=(units,))
    x = keras.layers.Dense(units)(source)
    x = L2Normalize()(x)
    x = keras.layers.Lambda(lambda t: tf.reduce_sum(t, axis=-1, keepdims=True))(x)
    return keras.Model(source, x)


stack = keras.Sequential([keras.layers.Dense(4), keras.layers.Dense(1)])
stack.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01, momentum=0.9), loss="mse")


@tf.function(reduce_retracing=True)
def normalise(x):
    return tf.math.log(tf.random.normal(tf.shape(x)) ** 2 + 1.0) + x


with tf.device("/CPU:0"):
    on_cpu = tf.identity(tf.ones([2]))

writer = tf.summary.create_file_writer("/tmp/tflsp-corpus-logs")
ckpt = tf.train.Checkpoint(model=model)
with tf.io.gfile.GFile("/tmp/tflsp-corpus.txt", "w") as handle:
    handle.write("ok")

compat_graph = tf.compat.v1.Graph()
with compat_graph.as_default():
    placeholder = tf.compat.v1.placeholder(tf.float32, shape=[None])


class WarmUp(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        self.model.optimizer.learning_rate = 0.001 * (epoch + 1)
