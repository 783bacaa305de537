# /// case
# source = "https://github.com/guanshuicheng/invoice/issues/49"
# title = "AttributeError: module 'tensorflow_core.keras.backend' has no attribute 'get_session'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow_core.keras.backend' has no attribute 'get_session'"
# flavour = "tf.keras"
# kind = "Keras backend session API (get_session/set_session) used under TF2"
# mistake = "The text detector grabs a global session with K.get_session() and a TF1 graph at import time."
# runtime = "raises"
# expected = ["TFL609"]
# ///
import tensorflow as tf
from tensorflow.keras import backend as K

graph = tf.get_default_graph()  # <-
sess = K.get_session()  # <-
