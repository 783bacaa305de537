# /// case
# source = "https://github.com/keras-team/keras/issues/19888"
# title = "having error in executing object detection module"
# sampling = "by-symptom: AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# symptom = "AttributeError: 'Sequential' object has no attribute 'predict_classes'. Did you mean: 'predict_step'?"
# flavour = "keras3"
# kind = "Keras 3 / TF 2.6+ removed Sequential.predict_classes/predict_proba"
# mistake = "A model restored from JSON plus weights is asked for predict_classes(), which Keras 3 does not have."
# runtime = "raises"
# expected = ["TFL607"]
# ///
import numpy as np
from keras.models import model_from_json
from keras.preprocessing import image

with open("model.json") as fh:
    loaded_model = model_from_json(fh.read())
loaded_model.load_weights("model.weights.h5")

img = image.img_to_array(image.load_img("car.jpg", target_size=(64, 64)))
result_x = loaded_model.predict_classes(np.expand_dims(img, 0))  # <-
