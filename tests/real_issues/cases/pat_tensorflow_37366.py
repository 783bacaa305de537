# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/37366"
# title = "tf_upgrade_v2 fails to deal with set_session"
# sampling = "by-pattern"
# symptom = "RuntimeError: `set_session` is not available when using TensorFlow 2.0."
# flavour = "tf.keras"
# kind = "Keras backend session API (get_session/set_session) used under TF2"
# mistake = "A speech-model script configures GPU memory through set_session from the standalone Keras tensorflow_backend module, a TF1 session API that TF 2 Keras does not provide."
# runtime = "raises"
# expected = ["TFL613"]
# note = "The thread's workaround, tf.compat.v1.keras.backend.set_session, works only with tf-keras and fails again on Keras 3 (TFL612); tf.config.experimental.set_memory_growth is the TF2 replacement."
# ///
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session  # <-

config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
set_session(tf.compat.v1.Session(config=config))  # <-
