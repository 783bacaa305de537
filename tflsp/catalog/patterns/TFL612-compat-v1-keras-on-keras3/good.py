"""TF2 style: no session to fetch, weights created once with add_weight."""

import tensorflow as tf


def tf1_session():
    # TF2 runs eagerly; device options go through tf.config instead of a session.
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
    return tf.config.list_logical_devices()


def tf1_style_layer():
    class Project(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], 2))

        def call(self, inputs):
            return tf.matmul(inputs, self.kernel)

    layer = Project()
    layer(tf.ones((1, 3)))
    print("tracked weights:", len(layer.trainable_weights))


for step in (tf1_session, tf1_style_layer):
    try:
        step()
        print(step.__name__, "works")
    except AttributeError:
        print(step.__name__, "fails: AttributeError")
