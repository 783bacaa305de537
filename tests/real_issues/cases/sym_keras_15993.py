# /// case
# source = "https://github.com/keras-team/keras/issues/15993"
# title = "in classify pred = model.predict_classes([image])[0] AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# sampling = "by-symptom: AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# symptom = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# flavour = "tf.keras"
# kind = "Keras 3 / TF 2.6+ removed Sequential.predict_classes/predict_proba"
# mistake = "A traffic-sign GUI classifies an uploaded image with model.predict_classes(), which no longer exists."
# runtime = "raises"
# expected = ["TFL607"]
# ///
import numpy
from PIL import Image
from tensorflow.keras.models import load_model

model = load_model("traffic_classifier.h5")
classes = {1: "Speed limit (20km/h)", 2: "Speed limit (30km/h)"}


def classify(file_path):
    image = Image.open(file_path).resize((30, 30))
    image = numpy.expand_dims(numpy.array(image), axis=0)
    pred = model.predict_classes([image])[0]  # <-
    return classes[pred + 1]
