# /// case
# source = "https://github.com/keras-team/keras/issues/13244"
# title = "AttributeError: module 'keras.backend' has no attribute 'tf'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'keras.backend' has no attribute 'tf'"
# flavour = "tf.keras"
# kind = "Keras backend session API (get_session/set_session) used under TF2"
# mistake = "The helper reaches TensorFlow through keras.backend.tf and builds TF1 GPUOptions/ConfigProto/Session objects to set allow_growth."
# runtime = "raises"
# expected = ["TFL609"]
# ///
from keras import backend as K


def parallel_gpu_jobs(allow_growth=True, fraction=0.5):
    gpu_options = K.tf.GPUOptions(allow_growth=allow_growth, per_process_gpu_memory_fraction=fraction)  # <-
    config = K.tf.ConfigProto(gpu_options=gpu_options)  # <-
    K.set_session(K.tf.Session(config=config))  # <-
