"""Targets shaped like real user code: nothing here tells the verifier how to build or call them.

Written for these tests; each reproduces a situation the verifier audit met in real code.
"""

import keras
import tensorflow as tf

MAX_TOKENS = 50


class Accumulator(keras.layers.Layer):
    """Keeps a running total of its inputs: stateful by design."""

    def __init__(self, width):
        super().__init__()
        self.total = self.add_weight(shape=(width,), initializer="zeros", trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


class NoisyScale(keras.layers.Layer):
    """Scale from an unseeded TF initializer (not reproducible by set_random_seed)."""

    def build(self, input_shape):
        self.scale = self.add_weight(
            shape=(input_shape[-1],), initializer=tf.random_normal_initializer(1.0, 0.2)
        )

    def call(self, x):
        return x * self.scale


class SeededDropout(keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs, training=False):
        if training:
            return keras.random.dropout(inputs, rate=self.rate, seed=self.seed_generator)
        return inputs


class Sampling(keras.layers.Layer):
    """z = mean + exp(log_var / 2) * eps, with unseeded keras.random (Keras's own RNG)."""

    def call(self, z_mean, z_log_var):
        eps = keras.random.normal(tf.shape(z_mean))
        return z_mean + tf.exp(0.5 * z_log_var) * eps


class Attention(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.w1 = keras.layers.Dense(units)
        self.w2 = keras.layers.Dense(units)
        self.v = keras.layers.Dense(1)

    def call(self, query, values):
        query = tf.expand_dims(query, 1)
        score = self.v(tf.nn.tanh(self.w1(query) + self.w2(values)))
        weights = tf.nn.softmax(score, axis=1)
        return tf.reduce_sum(weights * values, axis=1)


class MaskedSoftmax(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        assert mask is not None, "needs a mask"
        exps = tf.exp(inputs) * tf.expand_dims(tf.cast(mask, inputs.dtype), -1)
        return exps / tf.reduce_sum(exps, axis=-1, keepdims=True)


class TokenEncoder(keras.layers.Layer):
    def __init__(self, vocabulary_size, embedding_dim, **kwargs):
        super().__init__(**kwargs)
        self.embedding = keras.layers.Embedding(vocabulary_size, embedding_dim)
        self.dense = keras.layers.Dense(embedding_dim)

    def call(self, token_ids):
        return self.dense(self.embedding(token_ids))


class TrainStepModel(keras.Model):
    """Built the Functional way: CustomModel(inputs, outputs)."""

    def train_step(self, data):
        return super().train_step(data)


class Linear(tf.Module):
    def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.out_features = out_features
        self.w = None

    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.random.normal([x.shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
        return tf.matmul(x, self.w) + self.b


class Bundle:
    """A plain object: Keras does not look inside it."""


class HelperHeld(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.parts = Bundle()
        self.parts.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.parts.dense(x)


class ArgsUser(keras.layers.Layer):
    """Its constructor arguments are only known from the file's own use below."""

    def __init__(self, widths, **kwargs):
        super().__init__(**kwargs)
        self.blocks = [keras.layers.Dense(width) for width in widths]

    def call(self, x):
        for block in self.blocks:
            x = block(x)
        return x


@tf.function
def steps(num_steps):
    total = tf.constant(0)
    for i in tf.range(num_steps):
        total += i
    return total


@tf.function
def jitter(image, target):
    stacked = tf.stack([image, target])
    flipped = tf.image.random_flip_left_right(stacked)
    return flipped[0], flipped[1]


@tf.function
def affine(x, w, b):
    return tf.matmul(x, w) + b


if __name__ == "__main__":
    layer = ArgsUser([16, 8])
    print(layer(tf.zeros([3, 12])).shape)
