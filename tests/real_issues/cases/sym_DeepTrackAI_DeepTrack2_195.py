# /// case
# source = "https://github.com/DeepTrackAI/DeepTrack2/issues/195"
# title = "Loading weights/model for LodeSTAR"
# sampling = "by-symptom: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its variables yet"
# symptom = "ValueError: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its variables yet. Call the Model first, then load the weights."
# flavour = "tf.keras"
# kind = "load_weights into a subclassed model that has not been built"
# mistake = "The library's LodeSTAR model is a subclassed model; a new instance is given the checkpointed .h5 weights before it has been called on any image."
# runtime = "raises"
# note = "LodeSTAR is defined in the deeptrack package, so a static check cannot know that it is a subclassed model; no expected code."
# ///
import deeptrack as dt
from tensorflow.keras.callbacks import ModelCheckpoint


def train(train_set, model_path, channels):
    model = dt.models.LodeSTAR(input_shape=(None, None, channels))
    checkpoint = ModelCheckpoint(model_path + "/epoch_{epoch:02d}.h5", save_weights_only=True)
    model.fit(train_set, epochs=10, callbacks=[checkpoint])


def infer(weights_file, channels, image):
    model = dt.models.LodeSTAR(input_shape=(None, None, channels))
    model.load_weights(weights_file)  # <-
    return model.predict(image)
