# /// case
# source = "https://github.com/keras-team/keras/issues/13442"
# title = "AttributeError: module 'tensorflow' has no attribute 'get_default_session'"
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow' has no attribute 'get_default_session'"
# flavour = "tf.keras"
# kind = "private Keras backend helpers (tensorflow_backend._get_available_gpus)"
# mistake = "GPU availability is checked through the private K.tensorflow_backend._get_available_gpus(), which relies on TF1 sessions; tf.config.list_physical_devices('GPU') is the API."
# runtime = "raises"
# expected = ["TFL613", "TFL609"]
# ///
from keras import backend as K

print(K.tensorflow_backend._get_available_gpus())  # <-
