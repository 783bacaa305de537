# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/42981"
# title = "How to fix \"AttributeError: module 'tensorflow.keras.backend' has no attribute 'get_session'\""
# sampling = "by-pattern"
# symptom = "AttributeError: module 'tensorflow.keras.backend' has no attribute 'get_session'"
# flavour = "tf.keras"
# kind = "Keras backend session API (get_session/set_session) used under TF2"
# mistake = "A face-swap notebook passes K.get_session() to an MTCNN detector; TF2 Keras has no session."
# runtime = "raises"
# expected = ["TFL609"]
# ///
from tensorflow.keras import backend as K


def detect_faces(MTCNNFaceDetector, preprocess_video, fn_source_video):
    fd = MTCNNFaceDetector(sess=K.get_session(), model_path="./mtcnn_weights/")  # <-
    preprocess_video(fn_source_video, fd, 5, "./faceA/")
