"""tf.compat.v1.keras helpers that only tf-keras provides: Keras 3 has none of them."""

import tensorflow as tf


def tf1_session():
    return tf.compat.v1.keras.backend.get_session()  # [TFL612]


def tf1_style_layer():
    class Project(tf.keras.layers.Layer):
        @tf.compat.v1.keras.utils.track_tf1_style_variables  # [TFL612]
        def call(self, inputs):
            kernel = tf.compat.v1.get_variable("kernel", shape=(3, 2))  # [TFL302]
            return tf.matmul(inputs, kernel)

    return Project()(tf.ones((1, 3)))


for step in (tf1_session, tf1_style_layer):
    try:
        step()
        print(step.__name__, "works")
    except AttributeError:
        print(step.__name__, "fails: AttributeError")
